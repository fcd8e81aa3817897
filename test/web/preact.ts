// Preloaded (bunfig.toml) before any test file: the web tests render with Preact, as the web build ships
// (scripts/preact-alias.ts). Bun's runtime plugins see only specifiers with a "." or ":", not "react", so
// the files react and react-dom resolve to are loaded as their preact/compat twins instead, for our code
// and for Testing Library's alike.
import { plugin } from "bun";
import { TWINS } from "../../scripts/preact-alias.ts";

const FILE = /[\\/]node_modules[\\/](react|react-dom)[\\/](index|client|jsx-runtime|jsx-dev-runtime|test-utils)\.js$/;

plugin({
  name: "preact-twins",
  setup(build) {
    build.onLoad({ filter: FILE }, (args) => {
      const [, pkg, file] = FILE.exec(args.path)!;
      const twin = TWINS[file === "index" ? pkg! : `${pkg}/${file}`];
      if (!twin) throw new Error(`no Preact twin for ${args.path}`);
      return { loader: "object", exports: require(twin) };
    });
  },
});
