// Usage notes per UI platform for get_platform_usage: the same structure the reference's bundled
// notes have (platform, installation {core, packages}, basicUsage, props), written for this
// server. Local data: this tool needs no network.
export const platforms = ['react', 'vue', 'angular', 'svelte', 'react-native', 'flutter', 'html'] as const;
export type Platform = (typeof platforms)[number];

interface Prop {
  name: string;
  type: string;
  default?: string;
  description: string;
}

export interface PlatformUsage {
  platform: Platform;
  installation: { core: string; packages: string[] };
  basicUsage: string;
  props?: Prop[];
}

const freePackage = '@hugeicons/core-free-icons';
// The pro packages need a registry token (.npmrc or the package manager's equivalent).
const proStyles = [
  'stroke-rounded',
  'stroke-sharp',
  'stroke-standard',
  'solid-rounded',
  'solid-sharp',
  'solid-standard',
  'bulk-rounded',
  'duotone-rounded',
  'twotone-rounded',
];
const corePackages = [freePackage, ...proStyles.map((style) => `@hugeicons-pro/core-${style}`)];

const componentProps: Prop[] = [
  { name: 'icon', type: 'IconSvgObject', default: 'Required', description: 'The icon object imported from an icon package' },
  { name: 'altIcon', type: 'IconSvgObject', description: 'An alternative icon shown when showAlt is true' },
  { name: 'showAlt', type: 'boolean', default: 'false', description: 'Show altIcon instead of icon' },
  { name: 'size', type: 'number', default: '24', description: 'Width and height in pixels' },
  { name: 'color', type: 'string', default: 'currentColor', description: 'Any CSS color' },
  { name: 'strokeWidth', type: 'number', default: '1.5', description: 'Stroke width of stroke-style icons' },
];

function component(platform: Platform, core: string, basicUsage: string): PlatformUsage {
  return { platform, installation: { core, packages: corePackages }, basicUsage, props: componentProps };
}

export const platformUsage: Record<Platform, PlatformUsage> = {
  react: component(
    'react',
    'npm install @hugeicons/react',
    `import { HugeiconsIcon } from '@hugeicons/react'\nimport { Home01Icon } from '@hugeicons/core-free-icons'\n\nexport function App() {\n  return <HugeiconsIcon icon={Home01Icon} size={24} color="currentColor" strokeWidth={1.5} />\n}`,
  ),
  vue: component(
    'vue',
    'npm install @hugeicons/vue',
    `<script setup>\nimport { HugeiconsIcon } from '@hugeicons/vue'\nimport { Home01Icon } from '@hugeicons/core-free-icons'\n</script>\n\n<template>\n  <HugeiconsIcon :icon="Home01Icon" :size="24" color="currentColor" :stroke-width="1.5" />\n</template>`,
  ),
  angular: component(
    'angular',
    'npm install @hugeicons/angular',
    `import { Component } from '@angular/core'\nimport { HugeiconsIconComponent } from '@hugeicons/angular'\nimport { Home01Icon } from '@hugeicons/core-free-icons'\n\n@Component({\n  selector: 'app-root',\n  standalone: true,\n  imports: [HugeiconsIconComponent],\n  template: '<hugeicons-icon [icon]="homeIcon" [size]="24" color="currentColor" [strokeWidth]="1.5"></hugeicons-icon>',\n})\nexport class AppComponent {\n  homeIcon = Home01Icon\n}`,
  ),
  svelte: component(
    'svelte',
    'npm install @hugeicons/svelte',
    `<script>\n  import { HugeiconsIcon } from '@hugeicons/svelte'\n  import { Home01Icon } from '@hugeicons/core-free-icons'\n</script>\n\n<HugeiconsIcon icon={Home01Icon} size={24} color="currentColor" strokeWidth={1.5} />`,
  ),
  'react-native': component(
    'react-native',
    'npm install @hugeicons/react-native react-native-svg',
    `import { HugeiconsIcon } from '@hugeicons/react-native'\nimport { Home01Icon } from '@hugeicons/core-free-icons'\n\nexport function HomeButton() {\n  return <HugeiconsIcon icon={Home01Icon} size={24} color="black" strokeWidth={1.5} />\n}`,
  ),
  flutter: {
    platform: 'flutter',
    installation: { core: 'flutter pub add hugeicons', packages: [] },
    basicUsage: `import 'package:hugeicons/hugeicons.dart';\n\nHugeIcon(\n  icon: HugeIcons.strokeRoundedHome01,\n  color: Colors.black,\n  size: 24.0,\n)`,
    props: [
      { name: 'icon', type: 'IconData', default: 'Required', description: 'The icon, e.g. HugeIcons.strokeRoundedHome01' },
      { name: 'color', type: 'Color', default: 'Required', description: 'Icon color' },
      { name: 'size', type: 'double', default: '24.0', description: 'Icon size in logical pixels' },
    ],
  },
  html: {
    platform: 'html',
    installation: { core: '<link rel="stylesheet" href="https://cdn.hugeicons.com/font/hgi-stroke-rounded.css" />', packages: [] },
    basicUsage: `<!-- the icon font's class names are hgi-<style> hgi-<icon name> -->\n<i class="hgi hgi-stroke hgi-home-01"></i>`,
  },
};
