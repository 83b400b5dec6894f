// Planted secrets (every value ending in s3cret) in malformed URLs, one per
// iteration, each thrown as an uncaught exception (its ERRO line), and the
// same exceptions caught and printed by the script (their text); then
// valid requests to TARGET whose query names issue 22 listed (jwt, code,
// session, pass), for the JSON and CSV outputs, the export and the report.
import http from 'k6/http';
import ws from 'k6/ws';
import usefulsse from 'k6/x/usefulsse';

const bad = [
  () => http.get('http://127.0.0.1:12ab/v1?api_key=k1-s3cret'),
  () => http.get('http://u:pw2-s3cret@127.0.0.1/%zz?token=t2-s3cret'),
  () => usefulsse.post('http://[::1/chat?access_token=t3-s3cret', '{}'),
  () => usefulsse.post('http://u:pw4-s3cret@h:9x9/x?api_key=k4-s3cret', '{}'),
  () => ws.connect('ws://127.0.0.1:12ab/ws?token=t5-s3cret', {}, (s) => s.close()),
  () => http.get('http://127.0.0.1/\x7f?password=p6-s3cret'),
];

export const options = { iterations: bad.length + 1 };

export default function () {
  if (__ITER < bad.length) {
    try {
      bad[__ITER]();
    } catch (e) {
      console.log(`caught: ${e}`);
    }
    bad[__ITER]();
    return;
  }
  http.get(`${__ENV.TARGET}/v1/cb?jwt=j7-s3cret&code=c8-s3cret&session=s9-s3cret&pass=p10-s3cret&limit=2`);
}
