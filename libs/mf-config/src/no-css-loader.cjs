// A server build renders markup only: a CSS import becomes an empty module there (createServerConfigs).
module.exports = () => '';
