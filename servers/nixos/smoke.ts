// The smoke call of nixos: the ground-truth Home Manager lookup (programs.zsh.enable), answered
// offline by a fake serving a page in the markup of the Home Manager options page (as in the
// Home Manager client test of nix-community/mcp-nixos; the option text as the GT answers quote it).
import type { ServerSmoke } from '../shared/smoke.js';

const optionsPage = `<html><body><div class="variablelist"><dl class="variablelist">
<dt><span class="term"><a id="opt-programs.zsh.enable"></a><a class="term" href="#"><code class="option">programs.zsh.enable</code></a></span></dt>
<dd>
<p>Whether to enable Z shell (Zsh).</p>
<p><span class="emphasis"><em>Type:</em></span> boolean</p>
</dd>
</dl></div></body></html>`;

export const smoke: ServerSmoke = {
  tool: 'home_manager_info',
  args: { name: 'programs.zsh.enable' },
  expectation: 'the Home Manager option programs.zsh.enable with its type (boolean)',
  accept: (text) => text.startsWith('Option: programs.zsh.enable\nType: boolean'),
  offline: {
    env: { M3_UPSTREAM_HOME_MANAGER_URL: '' },
    routes: [{ path: '/home-manager/options.xhtml', reply: { headers: { 'content-type': 'application/xhtml+xml' }, body: optionsPage } }],
  },
};
