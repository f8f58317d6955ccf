/// The map page's web files, the text of `Map/Web/` built into the binary (no resource bundle: the
/// static release binary stays one file).
///
/// `Plugins/EmbedDataPlugin` runs the `EmbedData` tool (`--web`) on every `.js` and `.css` file of
/// `Map/Web` (which Package.swift excludes from the target's sources) and generates an extension of
/// this type with one `String` constant per file, named after it: `map-common.js` is ``mapCommonJS``,
/// `map-embedded.js` ``mapEmbeddedJS``, `map-served.js` ``mapServedJS``, `map.css` ``mapCSS``. A file
/// that is gone fails the build (its constant is missing); so does one that is empty, not UTF-8, or
/// holds `</script` (`</style`) or `<!--`, which would end or change its inline element. `make check-js`
/// runs `node --check` on the scripts.
enum MapWebFiles {}
