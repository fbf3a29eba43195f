// Which slice of which field a heatmap shows (shared by run detail, live run and compare views).
import type { FieldName } from '../../src-main/common/field-names.js';
import type { SliceAxis } from '../../src-main/common/contract/types.js';

/** The field, the normal axis and the plane index (null: the middle). */
export interface SliceChoice {
  field: FieldName;
  axis: SliceAxis;
  index: number | null;
}

/** The default choice: number density on the middle z plane. */
export function defaultSlice(): SliceChoice {
  return { field: 'n', axis: 'z', index: null };
}
