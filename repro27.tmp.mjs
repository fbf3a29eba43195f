import * as echarts from 'echarts';
import { fieldHeatmapOption } from '/work/wt-27/out/src-main/common/charts/field-heatmap-chart.js';
function mk(scale, offset){
  const W=30,H=30, values=[]; let mn=1e30,mx=-1e30;
  for(let v=0;v<H;v++)for(let u=0;u<W;u++){ const r=Math.hypot(u-15,v-15); const x= r<5?null: offset+scale*Math.sin(u/3+v/5); values.push(x); if(x!==null){mn=Math.min(mn,x);mx=Math.max(mx,x);} }
  const outline=[]; for(let k=0;k<40;k++){const a=k/40*2*Math.PI,b=(k+1)/40*2*Math.PI; outline.push(15+5*Math.cos(a),15+5*Math.sin(a),15+5*Math.cos(b),15+5*Math.sin(b));}
  return {width:W,height:H,values,min:mn,max:mx,label:'f',unit:'u',axis:'z',index:5,depth:10,axes:['x','y'],outline,cellSize:[0.01,0.01]};
}
const c = echarts.init(null, null, {renderer:'svg', ssr:true, width:600, height:500});
const count = () => (c.renderToSVGString().match(/stroke="#fff(fff)?"/g)||[]).length;
c.setOption(fieldHeatmapOption(mk(1e19,2e19),{frame:{width:600,height:500}}), true); console.log('n', count());
c.setOption(fieldHeatmapOption(mk(100,300),{frame:{width:600,height:500}}), true); console.log('T', count());
c.setOption(fieldHeatmapOption(mk(0.1,0.5),{frame:{width:600,height:500}}), true); console.log('p', count());
