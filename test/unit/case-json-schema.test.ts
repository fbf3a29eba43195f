// The committed resources/case.schema.json must equal caseJsonSchema().
// Regenerate it with: UPDATE_SCHEMA=1 npx vitest run test/unit/case-json-schema.test.ts
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { caseJsonSchema } from '../../src-main/common/case-schema.js';

const schemaFile = fileURLToPath(new URL('../../resources/case.schema.json', import.meta.url));
const regenerate = 'regenerate it with: UPDATE_SCHEMA=1 npx vitest run test/unit/case-json-schema.test.ts';

describe('resources/case.schema.json', () => {
  it('equals caseJsonSchema()', () => {
    const generated = caseJsonSchema();
    if (process.env.UPDATE_SCHEMA === '1') writeFileSync(schemaFile, `${JSON.stringify(generated, null, 2)}\n`);
    expect(existsSync(schemaFile), `resources/case.schema.json is missing; ${regenerate}`).toBe(true);
    const committed: unknown = JSON.parse(readFileSync(schemaFile, 'utf8'));
    expect(committed, `resources/case.schema.json is out of date; ${regenerate}`).toEqual(generated);
  });

  it('describes the top-level case object for editors', () => {
    const s = caseJsonSchema() as Record<string, any>;
    expect(s.$id).toBeTypeOf('string');
    expect(s.title).toBe('DSMC case');
    expect(s.additionalProperties).toBe(false);
    expect(Object.keys(s.properties)).toEqual(
      expect.arrayContaining(['$schema', 'name', 'grid', 'species', 'particles', 'initial', 'boundaries', 'run', 'sampling']),
    );
    // Fields with defaults are optional in the file as written.
    expect(s.required).toEqual(expect.arrayContaining(['name', 'grid', 'species', 'particles', 'initial', 'boundaries', 'run']));
    expect(s.required).not.toContain('sampling');
    expect(s.required).not.toContain('$schema');
    expect(s.properties.run.required).toEqual(['steps', 'dt']);
  });
});
