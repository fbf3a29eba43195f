// The app's routes (hash history: the server and Electron only ever load index.html).
import { createRouter, createWebHashHistory } from 'vue-router';
import CaseEditorView from './views/CaseEditorView.vue';
import CompareView from './views/CompareView.vue';
import LaunchView from './views/LaunchView.vue';
import LiveRunView from './views/LiveRunView.vue';
import ProjectsView from './views/ProjectsView.vue';
import RunDetailView from './views/RunDetailView.vue';
import ScalingView from './views/ScalingView.vue';

/** Creates the router of the app. */
export function createAppRouter() {
  return createRouter({
    history: createWebHashHistory(),
    routes: [
      { path: '/', redirect: '/projects' },
      { path: '/projects', component: ProjectsView },
      { path: '/editor', component: CaseEditorView },
      { path: '/launch', component: LaunchView },
      { path: '/runs/:id/live', component: LiveRunView },
      { path: '/runs/:id', component: RunDetailView },
      { path: '/compare', component: CompareView },
      { path: '/scaling', component: ScalingView },
    ],
  });
}
