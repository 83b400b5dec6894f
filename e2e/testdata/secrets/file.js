// Run with --secret-source=file=name=vault,filename=PATH (cool=some,
// else=source value) and a default mock source (cool=from mock).
import { check } from 'k6';
import secrets from 'k6/secrets';

export const options = { iterations: 1, thresholds: { checks: ['rate==1'] } };

const fromInit = await secrets.source('vault').get('cool');

export default async function () {
  const cool = await secrets.source('vault').get('cool');
  const other = await secrets.source('vault').get('else');
  const def = await secrets.get('cool');
  check(null, {
    'the init context reads a secret': () => fromInit === 'some',
    'the file has cool': () => cool === 'some',
    'a value keeps its spaces': () => other === 'source value',
    'the default source is the mock one': () => def === 'from mock',
  });
  console.log(cool, other, def);
}
