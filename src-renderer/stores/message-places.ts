// Where the case editor shows each check message, so that every message appears exactly once: next to its input
// in the generated form when the form has an input at that path, under its body in the bodies list when it is about
// a body (its shape as a whole, or the list naming it), and otherwise in the pre-launch list. (Before, a warning
// about a new body showed three times: under the form's shape group, in the bodies list and in the pre-launch list.)
import { nodeKind, unionKey, unionVariants, type SchemaNode } from '../components/schema-nodes.js';
import type { BodyRow } from './case-bodies.js';

/** Where a message is shown. */
export type MessagePlace = 'field' | 'body' | 'list';

/** A check message with its field path and the one place it is shown. */
export interface PlacedMessage {
  path: string;
  level: 'error' | 'warning';
  text: string;
  place: MessagePlace;
}

/** Kinds the form renders as one input (with the messages at their path, and a tuple's at its items' paths). */
const INPUT_KINDS = new Set(['tuple', 'enum', 'number', 'string', 'boolean', 'map', 'json']);

/** A message path as its segments: `bodies[0].shape.center[2]` -> ['bodies', 0, 'shape', 'center', 2]. */
export function parseMessagePath(path: string): (string | number)[] {
  return [...path.matchAll(/\[(\d+)\]|([^.[\]]+)/g)].map((m) => (m[1] !== undefined ? Number(m[1]) : m[2]));
}

/** The child value of a JSON value by key or index (undefined when absent). */
function child(value: unknown, key: string | number): unknown {
  return value && typeof value === 'object' ? (value as Record<string | number, unknown>)[key] : undefined;
}

/** True when the generated form (SchemaForm over `schema` and `value`) shows an input whose messages include those at `path`. */
export function formHasInputAt(schema: SchemaNode, value: unknown, path: (string | number)[]): boolean {
  let node: SchemaNode | undefined = schema;
  let v = value;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    const kind = nodeKind(node);
    if (kind === 'tuple') return i === path.length - 1 && typeof seg === 'number' && seg < (node.prefixItems?.length ?? 0);
    if (kind === 'object') node = typeof seg === 'string' && seg !== '$schema' ? node.properties?.[seg] : undefined;
    else if (kind === 'union') {
      // the union's key has a select without messages; the other properties are those of the chosen variant
      const variant = unionVariants(node).find((x) => x.tag === child(v, unionKey(node!)));
      node = typeof seg === 'string' && seg !== unionKey(node) ? variant?.node.properties?.[seg] : undefined;
    } else if (kind === 'list') node = typeof seg === 'number' && Array.isArray(v) && seg < v.length ? node.items : undefined;
    else return false;
    if (!node) return false;
    v = child(v, seg);
  }
  return INPUT_KINDS.has(nodeKind(node));
}

/** True when a message is about one of the bodies: at a body's path or below, or on the list naming a body in quotes. */
function aboutBody(path: string, text: string, bodies: BodyRow[]): boolean {
  return bodies.some((b) => path === b.path || path.startsWith(`${b.path}.`) || path.startsWith(`${b.path}[`) || (path === 'bodies' && text.includes(`"${b.name}"`)));
}

/** The one place of each message: the form's input at its path, else its body's row, else the pre-launch list. */
export function placeMessages(schema: SchemaNode, caseJson: unknown, bodies: BodyRow[], messages: Omit<PlacedMessage, 'place'>[]): PlacedMessage[] {
  return messages.map((m) => {
    const place: MessagePlace = caseJson !== null && formHasInputAt(schema, caseJson, parseMessagePath(m.path)) ? 'field'
      : aboutBody(m.path, m.text, bodies) ? 'body' : 'list';
    return { ...m, place };
  });
}

/** The messages of one place by path, as the form and the bodies list take them. */
export function messagesAt(placed: PlacedMessage[], place: MessagePlace): Map<string, { level: 'error' | 'warning'; text: string }[]> {
  const out = new Map<string, { level: 'error' | 'warning'; text: string }[]>();
  for (const m of placed) if (m.place === place) out.set(m.path, [...(out.get(m.path) ?? []), { level: m.level, text: m.text }]);
  return out;
}
