// @ts-check
// A form generated from a tool's JSON input schema. Strings, numbers, integers and booleans get
// inputs; enums a select; arrays of primitives a textarea with one value per line (or comma
// separated); objects and arrays of objects a JSON textarea. Required fields are marked, and
// string fields that take an image get a picker of the session's images.
import { errorText, h } from './dom.js';

/** @typedef {import('./dom.js').Json} Json */

/** The effective schema of a property: `type: [x, "null"]` and anyOf/oneOf with one non-null branch unwrap to it. */
export function effectiveSchema(/** @type {Json} */ schema) {
  if (!schema || typeof schema !== 'object') return {};
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) {
    const real = branches.filter((branch) => branch && branch.type !== 'null');
    if (real.length === 1) return { ...real[0], description: schema.description ?? real[0].description, default: schema.default ?? real[0].default };
    return { ...schema, type: 'json' };
  }
  if (Array.isArray(schema.type)) {
    const real = schema.type.filter((/** @type {string} */ type) => type !== 'null');
    return { ...schema, type: real.length === 1 ? real[0] : 'json' };
  }
  return schema;
}

function kindOf(/** @type {Json} */ schema) {
  if (Array.isArray(schema.enum)) return 'enum';
  const type = schema.type;
  if (type === 'string' || type === 'number' || type === 'integer' || type === 'boolean') return type;
  if (type === 'array') {
    const items = effectiveSchema(schema.items);
    if (['string', 'number', 'integer', 'boolean'].includes(items.type)) return 'list';
  }
  return 'json';
}

export function takesImage(/** @type {string} */ name, /** @type {Json} */ schema) {
  return schema.type === 'string' && /image|input_?path|file|uri|^path$/i.test(name) && !/output|save|dest/i.test(name);
}

function typeLabel(/** @type {Json} */ schema, /** @type {string} */ kind) {
  if (kind === 'list') return `${effectiveSchema(schema.items).type}[]`;
  if (kind === 'enum') return 'choice';
  return kind === 'json' ? (schema.type ?? 'json') : kind;
}

function inputFor(/** @type {string} */ id, /** @type {string} */ name, /** @type {Json} */ schema, /** @type {string} */ kind, /** @type {Json[]} */ images) {
  if (kind === 'enum') {
    return h(
      'select',
      { id, name },
      h('option', { value: '' }, '(not set)'),
      schema.enum.map((/** @type {unknown} */ value) => h('option', { value: JSON.stringify(value) }, String(value))),
    );
  }
  if (kind === 'boolean') {
    return h('select', { id, name }, h('option', { value: '' }, '(not set)'), h('option', { value: 'true' }, 'true'), h('option', { value: 'false' }, 'false'));
  }
  if (kind === 'number' || kind === 'integer')
    return h('input', { id, name, type: 'number', step: kind === 'integer' ? '1' : 'any', min: schema.minimum, max: schema.maximum });
  if (kind === 'list') return h('textarea', { id, name, rows: 3, placeholder: 'one value per line, or comma separated' });
  if (kind === 'json') return h('textarea', { id, name, rows: 5, placeholder: schema.type === 'array' ? '[ { … } ]' : '{ … }' });
  const text = h('input', { id, name, type: 'text' });
  if (!takesImage(name, schema)) return text;
  const picker = h(
    'select',
    {
      'aria-label': `${name}: pick an image`,
      onchange: (/** @type {Event} */ event) => {
        const picked = /** @type {HTMLSelectElement} */ (event.target);
        if (picked.value) text.value = picked.value;
      },
    },
    h('option', { value: '' }, images.length > 0 ? 'Pick an image…' : 'No images yet: upload one'),
    images.map((/** @type {Json} */ image) => h('option', { value: image.path }, `${image.source === 'upload' ? 'upload' : image.source} · ${image.id}`)),
  );
  return h('div', { class: 'with-picker' }, text, picker);
}

/** For JSON fields: the keys an object (or each array item) takes, required ones marked with *. */
function shapeHint(/** @type {Json} */ schema, /** @type {string} */ kind) {
  if (kind !== 'json') return '';
  const target = schema.type === 'array' ? effectiveSchema(schema.items) : schema;
  const keys = Object.keys(target.properties ?? {});
  if (keys.length === 0) return '';
  const required = new Set(target.required ?? []);
  const shape = `{ ${keys.map((key) => `${key}${required.has(key) ? '*' : ''}`).join(', ')} }`;
  return schema.type === 'array' ? `JSON array of ${shape}` : `JSON object ${shape}`;
}

/** Renders the form into `form`; returns a function that reads the arguments or throws a message. */
export function renderSchemaForm(/** @type {HTMLFormElement} */ form, /** @type {Json} */ inputSchema, /** @type {Json[]} */ images) {
  form.replaceChildren();
  const properties = inputSchema?.properties ?? {};
  const required = new Set(inputSchema?.required ?? []);
  /** @type {Json[]} */
  const fields = [];
  for (const [name, raw] of Object.entries(properties)) {
    const schema = effectiveSchema(raw);
    const kind = kindOf(schema);
    const id = `field-${name}`;
    const help = [schema.description, shapeHint(schema, kind), schema.default !== undefined ? `default ${JSON.stringify(schema.default)}` : '']
      .filter(Boolean)
      .join(' · ');
    form.append(
      h(
        'div',
        { class: 'field' },
        h(
          'label',
          { for: id },
          name,
          required.has(name) ? h('span', { class: 'required', title: 'required' }, '*') : null,
          h('span', { class: 'type' }, typeLabel(schema, kind)),
        ),
        inputFor(id, name, schema, kind, images),
        help ? h('div', { class: 'help' }, help) : null,
      ),
    );
    fields.push({ name, schema, kind, required: required.has(name) });
  }
  if (fields.length === 0) form.append(h('p', { class: 'muted small' }, 'This tool takes no arguments.'));
  return () => readArguments(form, fields);
}

function toPrimitive(/** @type {string} */ text, /** @type {string} */ type, /** @type {string} */ name) {
  if (type === 'string') return text;
  if (type === 'boolean') {
    if (text === 'true' || text === 'false') return text === 'true';
    throw new Error(`${name}: "${text}" is not true or false`);
  }
  const value = Number(text);
  if (text === '' || !Number.isFinite(value)) throw new Error(`${name}: "${text}" is not a number`);
  if (type === 'integer' && !Number.isInteger(value)) throw new Error(`${name}: "${text}" is not a whole number`);
  return value;
}

function readArguments(/** @type {HTMLFormElement} */ form, /** @type {Json[]} */ fields) {
  /** @type {Record<string, unknown>} */
  const args = {};
  /** @type {string[]} */
  const problems = [];
  for (const field of fields) {
    const element = /** @type {HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | null} */ (form.elements.namedItem(field.name));
    const text = (element?.value ?? '').trim();
    if (text === '') {
      if (field.required) problems.push(`${field.name} is required`);
      continue;
    }
    try {
      if (field.kind === 'enum') args[field.name] = JSON.parse(text);
      else if (field.kind === 'list') {
        const itemType = effectiveSchema(field.schema.items).type;
        const parts = text.includes('\n') ? text.split('\n') : text.split(',');
        args[field.name] = parts
          .map((/** @type {string} */ part) => part.trim())
          .filter((/** @type {string} */ part) => part !== '')
          .map((/** @type {string} */ part) => toPrimitive(part, itemType, field.name));
      } else if (field.kind === 'json') {
        try {
          args[field.name] = JSON.parse(text);
        } catch (error) {
          throw new Error(`${field.name}: not valid JSON (${errorText(error)})`);
        }
      } else args[field.name] = toPrimitive(text, field.kind, field.name);
    } catch (error) {
      problems.push(errorText(error));
    }
  }
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return args;
}
