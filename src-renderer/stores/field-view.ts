// Which slice of which field a heatmap shows (shared by run detail, live run and compare views).
import type { FieldName } from '../../src-main/common/field-names.js';
import type { SliceAxis } from '../../src-main/common/contract/types.js';

/** The field, the normal axis and the plane index (null: the middle). */
export interface SliceChoice {
  field: FieldName;
  axis: SliceAxis;
  index: number | null;
}

/** The choice with its field kept when `fields` (a run's own) has it, else number density or the first field there. */
export function choiceWithin(choice: SliceChoice, fields: readonly FieldName[] | undefined): SliceChoice {
  if (!fields || fields.length === 0 || fields.includes(choice.field)) return choice;
  return { ...choice, field: fields.includes('n') ? 'n' : fields[0] };
}

/** The default choice: number density on the middle z plane. */
export function defaultSlice(): SliceChoice {
  return { field: 'n', axis: 'z', index: null };
}
