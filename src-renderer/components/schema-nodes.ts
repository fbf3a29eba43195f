// Reading the case's JSON Schema (src-main/common/case-schema.ts caseJsonSchema) for the generated form:
// what kind of input a node needs, and the variants of a union such as a boundary condition.

/** The part of a JSON Schema node the form looks at. */
export interface SchemaNode {
  type?: string;
  description?: string;
  enum?: (string | number)[];
  const?: string;
  default?: unknown;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  items?: SchemaNode;
  prefixItems?: SchemaNode[];
  additionalProperties?: SchemaNode | boolean;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  minimum?: number;
  maximum?: number;
  minItems?: number;
}

/** The kinds of input the form renders. */
export type NodeKind = 'union' | 'object' | 'tuple' | 'list' | 'map' | 'enum' | 'number' | 'string' | 'boolean' | 'json';

/** Which input a node needs. */
export function nodeKind(n: SchemaNode): NodeKind {
  if (n.anyOf || n.oneOf) return hasUnionKey(n) ? 'union' : 'json';
  if (n.type === 'object' && n.properties) return 'object';
  if (n.type === 'object') return 'map';
  if (n.type === 'array' && n.prefixItems) return 'tuple';
  if (n.type === 'array') return 'list';
  if (n.enum) return 'enum';
  if (n.type === 'number' || n.type === 'integer') return 'number';
  if (n.type === 'string') return 'string';
  if (n.type === 'boolean') return 'boolean';
  return 'json';
}

/** True when every variant of a union fixes one property with a constant (a tagged union the form can switch). */
function hasUnionKey(n: SchemaNode): boolean {
  const vs = n.anyOf ?? n.oneOf ?? [];
  return Object.keys(vs[0]?.properties ?? {}).some((k) => vs.every((v) => v.properties?.[k]?.const !== undefined));
}

/** The property that tells a union's variants apart: the one every variant fixes with a constant (`type` for
 *  boundaries and shapes, `model` for surface models); `type` when none does. */
export function unionKey(n: SchemaNode): string {
  const vs = n.anyOf ?? n.oneOf ?? [];
  const first = Object.keys(vs[0]?.properties ?? {});
  return first.find((k) => vs.every((v) => v.properties?.[k]?.const !== undefined)) ?? 'type';
}

/** The variants of a union keyed by their discriminating constant (e.g. "diffuse"). */
export function unionVariants(n: SchemaNode): { tag: string; node: SchemaNode }[] {
  const key = unionKey(n);
  return (n.anyOf ?? n.oneOf ?? []).map((v) => ({ tag: v.properties?.[key]?.const ?? '?', node: v }));
}

/** Fewest items a list may keep: its minItems, else none when it defaults to empty (bodies), else one. */
export function minListItems(n: SchemaNode): number {
  return n.minItems ?? (Array.isArray(n.default) && n.default.length === 0 ? 0 : 1);
}

/** A number input's text back to a value: a number when it reads as one, '' -> undefined, else the text (the check names it). */
export function parseNumberText(text: string): unknown {
  const t = text.trim();
  if (t === '') return undefined;
  const x = Number(t);
  return Number.isFinite(x) ? x : t;
}

/** While typing: the number when the text is already one in its plain form ("0.5", "7e-9"), else null (wait for the change). */
export function liveNumber(text: string): number | null {
  const t = text.trim();
  const x = Number(t);
  return t !== '' && Number.isFinite(x) && String(x) === t ? x : null;
}

/** Fields edited as several lines of text, by path (the case's description). */
const MULTILINE_FIELDS: ReadonlySet<string> = new Set(['description']);

/** True when the text field at `pathText` takes several lines (a textarea instead of one line). */
export function isMultiline(pathText: string): boolean {
  return MULTILINE_FIELDS.has(pathText);
}
