// The decomposition layer of the cluster (pure: no GPU, no processes, no node:* imports): split a grid of
// cells over ranks, look up owners and neighbours, measure load, rebalance and plan cell migration.
export * from './types.js';
export { DecompositionError, formatBox, formatGrid } from './errors.js';
export { axesByLength, boxCells, boxContains, boxExtent, boxWeight, cellCoords, cellCount, cellId, intersectBoxes, planeProfile, wholeBox } from './box.js';
export { evenCuts, weightedCuts } from './cuts.js';
export { SummedWeights } from './summed-weights.js';
export { slabAxisOf, slabDecomposition } from './slab.js';
export { blockDecomposition, blockFactorisation, blockPartsOf, cutSurface } from './block.js';
export { rcbDecomposition } from './rcb.js';
export { rcbTreeOf, recutRcbTree, type RcbNode, type RcbTree } from './rcb-tree.js';
export { decompose, rebalance, recut } from './decompose.js';
export { owner, ownerAt } from './owner.js';
export { coverageProblems } from './validate.js';
export { boxesTouch, neighbours } from './neighbours.js';
export { loadNonUniformity, rankLoads, shouldRebalance } from './load.js';
export { migrationPlan, type CellMove } from './migration.js';
