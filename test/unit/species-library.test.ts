// The species library (src-main/common/species-library.ts): {"use": NAME} in a case file becomes the library's
// entry, fields beside it override it, unknown names are refused naming the entry, the JSON Schema offers the names,
// and the pre-launch check reports a rotating species' relaxation.
import { describe, expect, it } from 'vitest';
import { CaseError } from '../../src-main/common/case-errors.js';
import { caseJsonSchema, parseCase } from '../../src-main/common/case-schema.js';
import { LIBRARY_NAMES, SPECIES_LIBRARY } from '../../src-main/common/species-library.js';
import { prelaunchCheck } from '../../src-main/cases/prelaunch.js';
import { readCaseFile } from '../../src-main/cli/case-file.js';

/** The collide-box preset with the given species list. */
function withSpecies(species: unknown[]): unknown {
  return { ...(readCaseFile('collide-box') as object), species };
}

describe('species library', () => {
  it('expands {"use": "N2"} to Bird\'s VHS nitrogen with rotation, named N2, and lets fields beside it override', () => {
    const c = parseCase(withSpecies([{ use: 'N2' }]));
    expect(c.species).toEqual([{
      name: 'N2', mass: 46.5e-27, dRef: 4.17e-10, omega: 0.74, tRef: 273, alpha: 1, rotationalDof: 2, rotationalRelaxation: 5,
      vibration: { characteristicTemperature: 3371, relaxation: 50, millikanWhite: true },
    }]);
    // null removes a library field: N2 without its vibrational mode
    expect(parseCase(withSpecies([{ use: 'N2', vibration: null }])).species[0].vibration).toBeUndefined();
    const o = parseCase(withSpecies([{ use: 'N2', name: 'nitrogen', omega: 0.75, rotationalRelaxation: 10 }, { use: 'Ar' }]));
    expect(o.species[0]).toMatchObject({ name: 'nitrogen', mass: 46.5e-27, omega: 0.75, rotationalRelaxation: 10 });
    expect(o.species[1]).toMatchObject({ name: 'Ar', mass: 66.3e-27, rotationalDof: 0 });
    // an override is validated like any field
    expect(() => parseCase(withSpecies([{ use: 'O2', omega: 3 }]))).toThrow(/species\[0\]\.omega/);
  });

  it('refuses an unknown library name naming the entry and listing the library', () => {
    let err: unknown;
    try { parseCase(withSpecies([{ use: 'Ar' }, { use: 'H2' }])); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(CaseError);
    expect((err as CaseError).issues).toEqual([{ path: 'species[1].use', message: `got "H2"; expected one of the library species ${LIBRARY_NAMES.join(', ')}` }]);
    expect(() => parseCase(withSpecies([{ use: 5 }]))).toThrow(/species\[0\]\.use: got 5/);
  });

  it('ships the issue\'s molecules and atoms with rotation exactly for the linear molecules, vibration for the diatomics', () => {
    expect([...LIBRARY_NAMES].sort()).toEqual(['Ar', 'CO2', 'He', 'N', 'N2', 'NO', 'O', 'O2', 'Xe']);
    for (const [name, s] of Object.entries(SPECIES_LIBRARY)) {
      expect(s.rotationalDof, name).toBe(['N2', 'O2', 'NO', 'CO2'].includes(name) ? 2 : 0);
      expect(s.source, name).toMatch(['N', 'O'].includes(name) ? /SPARTA data\/vss\.data/ : /Bird 1994/);
      // one vibrational mode: the diatomics (CO2's four modes are not carried)
      expect(s.vibration !== undefined, name).toBe(['N2', 'O2', 'NO'].includes(name));
    }
    expect([SPECIES_LIBRARY.N2, SPECIES_LIBRARY.O2, SPECIES_LIBRARY.NO].map((s) => s.vibration!.characteristicTemperature)).toEqual([3371, 2256, 2719]);
    // every entry parses as a species of a case
    expect(parseCase(withSpecies(LIBRARY_NAMES.map((use) => ({ use })))).species.map((s) => s.name)).toEqual(LIBRARY_NAMES);
  });

  it('refuses a vibrating species that does not rotate, naming the field', () => {
    expect(() => parseCase(withSpecies([{ use: 'N2', rotationalDof: 0 }]))).toThrow(/species\[0\]\.rotationalDof: got 0 while species N2 vibrates/);
  });

  it('offers the names in the JSON Schema and reports the rotational relaxation before launch', () => {
    const schema = caseJsonSchema() as { properties: { species: { items: { properties: { use: { enum: string[] } }; required?: string[] } } } };
    expect(schema.properties.species.items.properties.use.enum).toEqual(LIBRARY_NAMES);
    expect(schema.properties.species.items.required).toBeUndefined();
    const c = parseCase(withSpecies([{ use: 'N2' }]));
    const r = prelaunchCheck(c, { limits: { maxStorageBufferBindingSize: 2 ** 31, maxBufferSize: 2 ** 31 }, buffers: [] });
    expect(r.estimates.rotation).toHaveLength(1);
    // Z (7/2 - omega)/(5/2 - omega) = 5 * 2.76 / 1.76
    expect(r.estimates.rotation[0].relaxationCollisions).toBeCloseTo((5 * 2.76) / 1.76, 10);
    expect(r.estimates.rotation[0].relaxationTime).toBeCloseTo(r.estimates.rotation[0].relaxationCollisions * r.estimates.meanCollisionTime, 15);
    // vibration: Millikan-White's Zvib of N2-N2 at the reference temperature, and the equilibrium quanta there
    expect(r.estimates.vibration).toHaveLength(1);
    const t = c.initial.temperature;
    expect(r.estimates.vibration[0].quantaAtReference).toBeCloseTo(1 / (Math.exp(3371 / t) - 1), 15);
    expect(r.estimates.vibration[0].zVib).toBeGreaterThan(1e6);
  });
});
