export default function () {
  console.log('FOO=' + __ENV.FOO);
}
