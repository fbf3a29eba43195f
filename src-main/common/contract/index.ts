// The contract between renderer and services: the interface, its request schemas, data types and wire messages.
export * from './contract.js';
export * from './types.js';
export * from './wire.js';
