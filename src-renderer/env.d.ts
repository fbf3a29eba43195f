// Types the renderer's build provides: .vue single-file components and Electron's preload bridge.
/// <reference types="vite/client" />
declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent<object, object, unknown>;
  export default component;
}

interface Window {
  /** Set by Electron's preload (src-main/electron/preload.ts); absent in browser mode. */
  dsmc?: import('../src-main/common/contract/wire.js').ContractBridge;
}
