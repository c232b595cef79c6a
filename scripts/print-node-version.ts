// Printed before the test run so a CI log shows which Node the npm scripts really run on (the `node` devDependency pins 24).
console.log(`tests run on Node ${process.version}`);
