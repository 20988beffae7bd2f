function upperCased(text) { for (let i = 0; i < text.length; i++) { const c = text.charCodeAt(i); if (c >= 97 || c < 65) return text.toUpperCase(); } return text; }
function lowerCased(text) { for (let i = 0; i < text.length; i++) { const c = text.charCodeAt(i); if ((c >= 65 && c <= 90) || c >= 128) return text.toLowerCase(); } return text; }
const methods = ['GET', 'POST', 'GET', 'DELETE']; const hosts = ['127.0.0.1', 'localhost', 'api.example.test', '127.0.0.1'];
let sink = 0;
function a(n) { for (let i = 0; i < n; i++) { sink += upperCased(methods[i & 3]).length + lowerCased(hosts[i & 3]).length; } }
function b(n) { for (let i = 0; i < n; i++) { sink += methods[i & 3].toUpperCase().length + hosts[i & 3].toLowerCase().length; } }
for (const [name, f] of [['scan', a], ['builtin', b], ['scan', a], ['builtin', b]]) {
  f(1e6); const s = []; for (let k = 0; k < 15; k++) { const t = process.hrtime.bigint(); f(2e5); s.push(Number(process.hrtime.bigint() - t) / 2e5); }
  s.sort((x, y) => x - y); console.log(name, s[0].toFixed(1), 'ns per request (method + host)');
}
