// Starts the renderer: picks the transport (Electron's preload bridge, else the WebSocket of `dsmc serve`),
// then mounts the app with Pinia and the router.
import { createPinia } from 'pinia';
import { createApp, reactive } from 'vue';
import App from './App.vue';
import { useTransport } from './api/index.js';
import { serverSocketUrl, webSocketTransport } from './api/ws-transport.js';
import { createAppRouter } from './router.js';

const state = reactive({ connected: true });
useTransport(window.dsmc ?? webSocketTransport(serverSocketUrl(window.location), (c) => { state.connected = c; }));
createApp(App, state).use(createPinia()).use(createAppRouter()).mount('#app');
