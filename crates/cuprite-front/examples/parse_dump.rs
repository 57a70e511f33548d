//! Parses a preprocessed file and prints a summary of its items and the diagnostics.
//! `cargo run -p cuprite-front --example parse_dump -- file.ii [-v]`

use cuprite_front::ast::{Item, ItemKind};

fn summary(item: &Item, depth: usize, verbose: bool, sm: &cuprite_front::SourceMap) {
    let pad = "  ".repeat(depth);
    let loc = sm.lookup(item.span.lo);
    let where_ = format!("{}:{}", loc.file, loc.line);
    match &item.kind {
        ItemKind::Namespace { name, items, .. } => {
            if verbose {
                println!("{pad}namespace {:?} ({where_})", name.as_ref().map(|n| &n.name));
            }
            for i in items {
                summary(i, depth + 1, verbose, sm);
            }
        }
        ItemKind::LinkageSpec { items, .. } => {
            for i in items {
                summary(i, depth + 1, verbose, sm);
            }
        }
        ItemKind::FunctionDef(f) => {
            let name = f.declarator.name.as_ref().map(|p| p.last().name.clone()).unwrap_or_default();
            println!("{pad}fn {name} ({where_}) stmts={}", f.body.stmts.len());
        }
        ItemKind::Skipped { names, reason, error } => {
            if verbose || !item.in_system_header {
                println!(
                    "{pad}skipped {:?} {:?} ({where_}){}",
                    reason,
                    names,
                    error.as_ref().map(|e| format!(" error: {} @ {:?}", e.message, sm.lookup(e.span.lo))).unwrap_or_default()
                );
            }
        }
        other => {
            if verbose || !item.in_system_header {
                let s = format!("{other:?}");
                println!("{pad}{} ({where_})", &s[..s.len().min(100)]);
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: parse_dump FILE [-v]");
        std::process::exit(2);
    };
    let verbose = args.iter().any(|a| a == "-v");
    let text = std::fs::read_to_string(path).expect("readable file");
    let t = std::time::Instant::now();
    let r = cuprite_front::parse(&text);
    let dt = t.elapsed();
    for item in &r.tu.items {
        summary(item, 0, verbose, &r.source_map);
    }
    print!("{}", cuprite_front::render_all(&r.diagnostics, &r.source_map));
    eprintln!("parsed {} bytes in {:?}", text.len(), dt);
}
