// Seeded random numbers for test inputs (mulberry32), shared by every test layer so failures reproduce.
export { mulberry32Words, seededUniform } from '../src-main/common/seeded-random.js';
