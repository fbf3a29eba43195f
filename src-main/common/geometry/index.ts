// Geometry of the bodies in the flow: meshes of the case's shapes, STL reading, mesh and placement checks,
// the per-cell triangle table with gas volume fractions, mesh properties and plane outlines.
export { tessellateShape, rotationMatrix, shapeTriangleCount, triangleBudgetIssue } from './shapes.js';
export { parseStl, MAX_BODY_TRIANGLES, MAX_ASCII_STL_BYTES } from './stl.js';
export { meshIssues, bodyPlacementIssues, type NamedMesh, type PlacementIssues } from './mesh-check.js';
export {
  buildCellTable,
  insideTester,
  CELL_GAS,
  CELL_CUT,
  CELL_INSIDE,
  type CellGrid,
  type CellTable,
  type CellTableOptions,
  type InsideTester,
} from './cell-table.js';
export {
  triangleAreas,
  triangleNormals,
  triangleCentroids,
  meshVolume,
  meshCentroid,
  projectedArea,
  meshBounds,
  type MeshBounds,
} from './mesh-properties.js';
export { sliceOutline } from './slice.js';
