import { STOREFRONT_ROUTES, compressedKb, readManifest, routeFiles } from '../helpers/bundle.js';
const before = readManifest('/tmp/s60/dist-before'), after = readManifest();
for (const route of ['/', '/product/{id}', '/cart', '/payments']) {
const screen = STOREFRONT_ROUTES[route]!;
const b = routeFiles(before, screen).js, a = routeFiles(after, screen).js;
const name = (f: string) => f.replace(/-[\w-]{8}\.js$/, '');
let tb = 0, ta = 0;
for (const f of b) { const g = a.find((x) => name(x) === name(f)); const x = compressedKb(f, '/tmp/s60/dist-before').br, y = g ? compressedKb(g).br : 0; tb += x; ta += y; if (Math.abs(x - y) > 0.005) console.log(route, name(f), x.toFixed(3), y.toFixed(3)); }
console.log(route, 'total', tb.toFixed(2), ta.toFixed(2), a.length === b.length);
}
