// Required by cjs.js through require().
exports.prefix = 'hello';
