export const options = { vus: 2, duration: '1s' };

export default function () {}
