//! The client's side of the page contract, written from the server's types by `make types`
//! (a test here, run with `UPDATE_TYPES=1`) and checked by the same tests in `make test`:
//!
//! - `client/lib/props.gen.ts`: `PageProps` and every type it reaches (ts-rs), nothing
//!   listed by hand;
//! - `client/pages/pages.gen.ts`: the page map, each name of `PageProps::NAMES` to the React
//!   page that draws it. A page named `admin-data-requests` is `AdminDataRequestsPage`,
//!   exported by `client/pages/admin/AdminDataRequestsPage.tsx` (the console's pages, named
//!   `admin-…`, sit in `admin/`; the others beside it);
//! - `client/features/admin/sections.gen.ts`: the console's navigation, `AdminSection::ALL`
//!   with each section's label and address.
//!
//! A page without its React file, or a `…Page.tsx` no page draws, fails here with the file
//! named.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use ts_rs::{Config, TS, TypeVisitor};

use super::admin::AdminSection;
use super::props::PageProps;

const PROPS: &str = "client/lib/props.gen.ts";
const PAGE_MAP: &str = "client/pages/pages.gen.ts";
const SECTIONS: &str = "client/features/admin/sections.gen.ts";
/// Where the React pages are.
const PAGES_DIR: &str = "client/pages";

/// A type the pages' props reach: its declaration and the types it names.
#[derive(Default)]
struct Declared {
    decl: String,
    names: BTreeSet<String>,
}

/// Collects the types a type names directly (those with a declaration of their own, not
/// `String` or `Vec`), and declares each of them in turn.
struct Reach<'a> {
    cfg: &'a Config,
    found: &'a mut BTreeMap<String, Declared>,
    names: BTreeSet<String>,
}

impl TypeVisitor for Reach<'_> {
    fn visit<T: TS + 'static + ?Sized>(&mut self) {
        if T::output_path().is_some() {
            self.names.insert(T::ident(self.cfg));
            declare::<T>(self.cfg, self.found);
        }
    }
}

/// `T` and every type it reaches, into `found` by name.
fn declare<T: TS + 'static + ?Sized>(cfg: &Config, found: &mut BTreeMap<String, Declared>) {
    let name = T::ident(cfg);
    if found.contains_key(&name) {
        return;
    }
    found.insert(name.clone(), Declared::default());
    let mut reach = Reach {
        cfg,
        found,
        names: BTreeSet::new(),
    };
    T::visit_dependencies(&mut reach);
    let names = reach.names;
    found.insert(name, Declared { decl: T::decl(cfg), names });
}

/// The declarations from `name` down, each after the types it names (taken by name, so
/// the order is the same on every build), each once.
fn in_order(name: &str, found: &BTreeMap<String, Declared>, done: &mut BTreeSet<String>, out: &mut Vec<String>) {
    if !done.insert(name.to_string()) {
        return;
    }
    let Some(declared) = found.get(name) else { return };
    for dependency in &declared.names {
        in_order(dependency, found, done, out);
    }
    out.push(declared.decl.clone());
}

/// `client/lib/props.gen.ts`: `PageProps` and every type it reaches.
fn props() -> String {
    let cfg = Config::new();
    let mut found = BTreeMap::new();
    declare::<PageProps>(&cfg, &mut found);
    let mut decls = Vec::new();
    in_order(&PageProps::ident(&cfg), &found, &mut BTreeSet::new(), &mut decls);
    let mut out = String::from(
        "// Generated from server/src/pages/props.rs by `make types`: do not edit.\n\
         // The props the server renders each page with (and the catalogue types inside them).\n\n\
         /** A lucide icon as data: a list of [tag, attributes] SVG children. */\n\
         export type IconNode = ReadonlyArray<readonly [string, Readonly<Record<string, string | number>>]>;\n",
    );
    for decl in decls {
        out.push('\n');
        out.push_str("export ");
        out.push_str(&decl);
        out.push('\n');
    }
    out
}

/// The React page of the page `name`: its component and its module, from `client/pages/`
/// without the extension (`admin-lead` → `AdminLeadPage` in `admin/AdminLeadPage`).
fn react_page(name: &str) -> (String, String) {
    let component: String = name
        .split('-')
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .chain(["Page".to_string()])
        .collect();
    let module = if name.starts_with("admin-") {
        format!("admin/{component}")
    } else {
        component.clone()
    };
    (component, module)
}

/// `client/pages/pages.gen.ts`: every page's name to its React page.
fn page_map() -> String {
    let mut pages: Vec<(&str, String, String)> = PageProps::NAMES
        .iter()
        .map(|name| {
            let (component, module) = react_page(name);
            (*name, component, module)
        })
        .collect();
    let mut out = String::from(
        "// Generated from server/src/pages/props.rs by `make types`: do not edit.\n\
         // Every page the server renders, by its props' `page`: the React page that draws it.\n\n\
         import type { ComponentType } from \"react\";\n\
         import type { PageProps } from \"../lib/types\";\n",
    );
    pages.sort_by(|a, b| a.2.cmp(&b.2));
    for (_, component, module) in &pages {
        out.push_str(&format!("import {{ {component} }} from \"./{module}\";\n"));
    }
    out.push_str(
        "\n/** The props of the page named `P`. */\n\
         export type PropsOf<P extends PageProps[\"page\"]> = Extract<PageProps, { page: P }>;\n\n\
         /** Each page's React page, which takes that page's props. */\n\
         export const PAGES: { readonly [P in PageProps[\"page\"]]: ComponentType<PropsOf<P>> } = {\n",
    );
    pages.sort_by(|a, b| a.0.cmp(b.0));
    for (name, component, _) in &pages {
        out.push_str(&format!("  \"{name}\": {component},\n"));
    }
    out.push_str("};\n");
    out
}

/// `client/features/admin/sections.gen.ts`: the console's navigation.
fn sections() -> String {
    let mut out = String::from(
        "// Generated from server/src/pages/admin/mod.rs by `make types`: do not edit.\n\
         // The console's sections as its navigation lists them: the section, its label, its address.\n\n\
         import type { AdminSection } from \"../../lib/types\";\n\n\
         export const SECTIONS: ReadonlyArray<readonly [AdminSection, string, string]> = [\n",
    );
    for section in AdminSection::ALL {
        let value = serde_json::to_value(section).unwrap_or_default();
        let tag = value.as_str().unwrap_or_default();
        out.push_str(&format!(
            "  [{}, {}, {}],\n",
            serde_json::Value::from(tag),
            serde_json::Value::from(section.label()),
            serde_json::Value::from(section.path())
        ));
    }
    out.push_str("];\n");
    out
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn the_generated_typescript_is_current() {
    let update = std::env::var_os("UPDATE_TYPES").is_some();
    let mut stale = Vec::new();
    for (file, fresh) in [(PROPS, props()), (PAGE_MAP, page_map()), (SECTIONS, sections())] {
        let path = repo().join(file);
        if update {
            std::fs::write(&path, &fresh).expect("write a generated file");
        } else if std::fs::read_to_string(&path).unwrap_or_default() != fresh {
            stale.push(file);
        }
    }
    assert!(
        stale.is_empty(),
        "stale: {}. The page props, the pages or the console's sections changed (server/src/pages/props.rs, \
         server/src/pages/admin/mod.rs): run `make types` and commit the result.",
        stale.join(", ")
    );
}

/// The `…Page.tsx` files under `dir`, as modules from `client/pages/` (`admin/AdminLeadPage`).
fn react_pages(dir: &Path, prefix: &str, out: &mut BTreeSet<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        if entry.path().is_dir() {
            react_pages(&entry.path(), &format!("{prefix}{name}/"), out);
        } else if let Some(stem) = name.strip_suffix("Page.tsx") {
            out.insert(format!("{prefix}{stem}Page"));
        }
    }
}

#[test]
fn every_page_has_its_react_page_and_every_react_page_a_page() {
    let dir = repo().join(PAGES_DIR);
    let mut problems = Vec::new();
    let mut drawn = BTreeSet::new();
    for name in PageProps::NAMES {
        let (component, module) = react_page(name);
        let file = format!("{PAGES_DIR}/{module}.tsx");
        let text = std::fs::read_to_string(repo().join(&file)).unwrap_or_default();
        if !text.contains(&format!("export function {component}(")) {
            problems.push(format!(
                "the page \"{name}\" (server/src/pages/props.rs) needs its React page: `export function {component}(props)` in {file}"
            ));
        }
        drawn.insert(module);
    }
    let mut files = BTreeSet::new();
    react_pages(&dir, "", &mut files);
    for module in files.difference(&drawn) {
        problems.push(format!(
            "{PAGES_DIR}/{module}.tsx is no page's: add its variant to `page_props!` in server/src/pages/props.rs, or remove it"
        ));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_page_names_make_their_react_pages() {
    assert_eq!(react_page("home"), ("HomePage".into(), "HomePage".into()));
    assert_eq!(react_page("not-found"), ("NotFoundPage".into(), "NotFoundPage".into()));
    assert_eq!(
        react_page("admin-data-requests"),
        ("AdminDataRequestsPage".into(), "admin/AdminDataRequestsPage".into())
    );
}
