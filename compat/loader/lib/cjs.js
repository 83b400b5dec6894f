// A CommonJS module, as jslib bundles are built.
const helper = require('./helper.js');

module.exports = {
  greet: (name) => `${helper.prefix}, ${name}`,
};
exports.ignored = true;
