// Files imported `with { type: "file" }` (a path) or `{ type: "text" }` (the content) by Bun.
declare module "*.sql" {
  const text: string;
  export default text;
}
declare module "*.css";
declare module "*.webmanifest" {
  const path: string;
  export default path;
}
declare module "*.svg" {
  const path: string;
  export default path;
}
declare module "*.png" {
  const path: string;
  export default path;
}
declare module "*.html" {
  const text: string;
  export default text;
}
declare module "*.wasm" {
  const path: string;
  export default path;
}
