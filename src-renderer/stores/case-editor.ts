// The case being edited: started from a preset, changed through the form or the JSON view, checked live
// (schema issues and the pre-launch check) a moment after each change; its bodies listed, added and removed.
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { caseJsonSchema } from '../../src-main/common/case-schema.js';
import type { CaseCheck, PresetInfo } from '../../src-main/common/contract/types.js';
import { getApi } from '../api/index.js';
import type { SchemaNode } from '../components/schema-nodes.js';
import { errorText } from './errors.js';
import { bodyRows, newBody } from './case-bodies.js';
import { base64Of, meshFileName, stlBody } from './mesh-upload.js';
import { cloneJson, setAtPath } from './case-paths.js';
import { messagesAt, placeMessages, type PlacedMessage } from './message-places.js';

/** Delay between the last edit and the check (ms). */
const CHECK_DELAY_MS = 250;

/** The case's JSON Schema the form is generated from (where a message's path has an input). */
const CASE_SCHEMA = caseJsonSchema() as SchemaNode;

/** True when a form edit chooses a library species for a species item (path species, i, use). */
function isLibraryChoice(path: (string | number)[], value: unknown): boolean {
  return path.length === 3 && path[0] === 'species' && typeof path[1] === 'number' && path[2] === 'use' && typeof value === 'string';
}

export const useCaseEditorStore = defineStore('caseEditor', () => {
  // State
  const presets = ref<PresetInfo[]>([]);
  const presetName = ref<string | null>(null);
  const caseJson = ref<Record<string, unknown> | null>(null);
  const jsonText = ref('');
  /** Why the last STL upload failed (null when it did not). */
  const uploadError = ref<string | null>(null);
  const jsonError = ref<string | null>(null);
  const check = ref<CaseCheck | null>(null);
  const checking = ref(false);
  /** The physics checks of the last case without schema errors (kept while an edit has schema errors; null after a new preset). */
  const lastPrelaunch = ref<CaseCheck['prelaunch']>(null);
  const error = ref<string | null>(null);
  let timer: ReturnType<typeof setTimeout> | null = null;
  let checkSeq = 0;

  // Computed
  /** Messages by field path (schema issues and pre-launch findings), for the form to show next to fields. */
  const messagesByPath = computed(() => {
    const out = new Map<string, { level: 'error' | 'warning'; text: string }[]>();
    const add = (path: string, level: 'error' | 'warning', text: string) => out.set(path, [...(out.get(path) ?? []), { level, text }]);
    for (const i of check.value?.issues ?? []) add(i.path, 'error', i.message);
    for (const f of check.value?.prelaunch?.errors ?? []) add(f.field, 'error', f.message);
    for (const f of check.value?.prelaunch?.warnings ?? []) add(f.field, 'warning', f.message);
    return out;
  });
  /** The physics checks to show: the current case's, else (schema errors) the last ones, marked by `prelaunchStale`. */
  const prelaunchShown = computed(() => check.value?.prelaunch ?? lastPrelaunch.value);
  const prelaunchStale = computed(() => check.value !== null && check.value.prelaunch === null && lastPrelaunch.value !== null);
  const canLaunch = computed(() => caseJson.value !== null && jsonError.value === null && check.value?.ok === true);
  /** The case's bodies as the editor lists them. */
  const bodies = computed(() => bodyRows(caseJson.value));
  /** Every message of the check with the one place it is shown (form input, body row or pre-launch list); stale physics findings only in the list. */
  const placedMessages = computed<PlacedMessage[]>(() => {
    const current = [
      ...(check.value?.issues ?? []).map((i) => ({ path: i.path, level: 'error' as const, text: i.message })),
      ...(check.value?.prelaunch?.errors ?? []).map((f) => ({ path: f.field, level: 'error' as const, text: f.message })),
      ...(check.value?.prelaunch?.warnings ?? []).map((f) => ({ path: f.field, level: 'warning' as const, text: f.message })),
    ];
    const stale = prelaunchStale.value && lastPrelaunch.value ? [
      ...lastPrelaunch.value.errors.map((f) => ({ path: f.field, level: 'error' as const, text: f.message, place: 'list' as const })),
      ...lastPrelaunch.value.warnings.map((f) => ({ path: f.field, level: 'warning' as const, text: f.message, place: 'list' as const })),
    ] : [];
    return [...placeMessages(CASE_SCHEMA, caseJson.value, bodies.value, current), ...stale];
  });
  /** The messages the form shows next to its inputs, and those the bodies list shows under their body, by path. */
  const fieldMessages = computed(() => messagesAt(placedMessages.value, 'field'));
  const bodyMessagesByPath = computed(() => messagesAt(placedMessages.value, 'body'));

  // Actions
  /** Loads the presets and starts from the first when nothing is being edited. */
  async function loadPresets(): Promise<void> {
    try {
      presets.value = await getApi().listPresets({});
      if (caseJson.value === null && presets.value.length > 0) startFrom(presets.value[0].name);
    } catch (e) {
      error.value = errorText(e);
    }
  }

  /** Replaces the case with a copy of a preset. */
  function startFrom(name: string): void {
    const p = presets.value.find((x) => x.name === name);
    if (!p) { error.value = `preset "${name}" not found; pick one of ${presets.value.map((x) => x.name).join(', ')}`; return; }
    presetName.value = name;
    lastPrelaunch.value = null;
    setCase(cloneJson(p.json) as Record<string, unknown>);
  }

  /** Sets the whole case (form and JSON view) and schedules a check. */
  function setCase(json: Record<string, unknown>): void {
    caseJson.value = json;
    jsonText.value = JSON.stringify(json, null, 2);
    jsonError.value = null;
    scheduleCheck();
  }

  /**
   * Changes one field from the form. Choosing a library species (`species[i].use`) makes the item that species alone:
   * fields left beside `use` would override the library's values (an argon item's mass on N2); fields edited after
   * it override it as usual.
   */
  function update(path: (string | number)[], value: unknown): void {
    if (!caseJson.value) return;
    const next = cloneJson(caseJson.value) as Record<string, unknown>;
    if (isLibraryChoice(path, value)) setAtPath(next, path.slice(0, 2), { use: value });
    else setAtPath(next, path, value);
    setCase(next);
  }

  /** Adds a body (a diffuse sphere in the middle of the box, to be edited in the form or the JSON view). */
  function addBody(): void {
    const list = Array.isArray(caseJson.value?.bodies) ? (caseJson.value!.bodies as unknown[]) : [];
    update(['bodies'], [...cloneJson(list), newBody(caseJson.value)]);
  }

  /** Uploads an STL file from the user's computer (contract uploadMesh) and adds a body made of it; errors go to uploadError. */
  async function addStlBody(file: File): Promise<void> {
    uploadError.value = null;
    try {
      const uploaded = await getApi().uploadMesh({ name: meshFileName(file.name), contentBase64: base64Of(new Uint8Array(await file.arrayBuffer())) });
      const list = Array.isArray(caseJson.value?.bodies) ? (caseJson.value!.bodies as unknown[]) : [];
      update(['bodies'], [...cloneJson(list), stlBody(caseJson.value, file.name, uploaded.file)]);
    } catch (e) {
      uploadError.value = `${file.name}: ${errorText(e)}`;
    }
  }

  /** Removes the body at `index`. */
  function removeBody(index: number): void {
    const list = Array.isArray(caseJson.value?.bodies) ? (caseJson.value!.bodies as unknown[]) : [];
    update(['bodies'], cloneJson(list).filter((_, i) => i !== index));
  }

  /** Takes the JSON view's text: parsed into the case when valid, else an error next to the text. */
  function setJsonText(text: string): void {
    jsonText.value = text;
    try {
      const parsed = JSON.parse(text) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('the case must be a JSON object {...}');
      caseJson.value = parsed as Record<string, unknown>;
      jsonError.value = null;
      scheduleCheck();
    } catch (e) {
      jsonError.value = `JSON view: ${errorText(e)}; fix the text (the form keeps the last valid case)`;
    }
  }

  /**
   * Checks the case a moment after the last change (only the latest answer is kept); the status says "checking" from
   * the change on, so a result of the case before the change is never shown as the current one.
   */
  function scheduleCheck(): void {
    if (timer) clearTimeout(timer);
    checking.value = true;
    timer = setTimeout(() => void runCheck(), CHECK_DELAY_MS);
  }

  /** Checks the case now. */
  async function runCheck(): Promise<void> {
    if (!caseJson.value) {
      checking.value = false;
      return;
    }
    const seq = ++checkSeq;
    checking.value = true;
    try {
      const result = await getApi().checkCase({ caseJson: caseJson.value });
      if (seq === checkSeq) {
        check.value = result;
        if (result.prelaunch) lastPrelaunch.value = result.prelaunch;
        error.value = null;
      }
    } catch (e) {
      if (seq === checkSeq) error.value = errorText(e);
    } finally {
      if (seq === checkSeq) checking.value = false;
    }
  }

  return {
    presets, presetName, caseJson, jsonText, jsonError, check, checking, error, messagesByPath, canLaunch, bodies, prelaunchShown, prelaunchStale,
    placedMessages, fieldMessages, bodyMessagesByPath, loadPresets, startFrom, setCase, update, setJsonText, runCheck, addBody, removeBody, addStlBody, uploadError,
  };
});
