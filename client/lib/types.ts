// The props the server renders each page with. Their shapes are defined once, in Rust
// (server/src/pages/props.rs), and generated into props.gen.ts by `make types`; `make test`
// fails when that file is stale. Every type the generated file declares is importable from
// here by its own name: a new props type needs nothing added to this file.

export type * from "./props.gen";
