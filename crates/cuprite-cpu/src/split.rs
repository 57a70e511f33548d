//! The generated C as several translation units, so that the C compiler builds a module's
//! kernels in parallel (docs/PERFORMANCE.md, "Build time").
//!
//! Every unit has the whole head (ABI header, prelude, structs, prototypes) and the
//! bodies of the device functions (`static`: the C compiler drops those a unit does not
//! call, and inlines the others as it would in one file); each kernel's entry is in
//! exactly one unit. The first unit also holds the module table and the definitions of
//! the device variables; the others declare the variables `extern`. What crosses units
//! (kernel entries, device variables) has hidden visibility: the driver links the units'
//! objects with `ld -r` and makes those symbols local again (`objcopy
//! --localize-hidden`), so that two `.cu` files' device objects never clash, as with one
//! unit whose symbols are `static`.

use crate::cast::{Item, Printer};
use crate::emit::ModuleItems;
use cuprite_ir::{Init, InstKind, Module};

const HIDDEN: &str = "__attribute__((visibility(\"hidden\")))";

/// Whether the module's C may be split: no function's address is taken. A device
/// function is a `static` copy in every unit, so its address would differ between units
/// (a pointer stored by one kernel and compared in another).
pub fn splittable(m: &Module) -> bool {
    let takes_address = m.functions.iter().flat_map(|f| &f.blocks).flat_map(|b| &b.insts).any(|i| matches!(i.kind, InstKind::FuncAddr(_)));
    !takes_address && !m.globals.iter().any(|g| g.init.as_ref().is_some_and(init_takes_address))
}

fn init_takes_address(i: &Init) -> bool {
    match i {
        Init::FuncAddr(_) => true,
        Init::Aggregate(items) => items.iter().any(init_takes_address),
        _ => false,
    }
}

/// Prints `items` as at most `parts` C files (one per group of kernels, groups balanced
/// by the size of their C). The first holds the module table. One part: the same text as
/// printing every item in order.
pub fn print_parts(items: &ModuleItems, parts: usize) -> Vec<String> {
    let parts = parts.min(items.kernels.len()).max(1);
    if parts == 1 {
        return vec![print(items.all())];
    }
    let groups = balance(items, parts);
    let mut out = Vec::new();
    for (g, kernels) in groups.iter().enumerate() {
        let first = g == 0;
        let mut unit: Vec<Item> = items.head.clone();
        unit.extend(items.globals.iter().map(|i| shared_variable(i, first)));
        unit.extend(items.functions.iter().cloned());
        for &k in kernels {
            let ki = &items.kernels[k];
            unit.extend(ki.items.iter().map(|i| if entry_named(i, &ki.entry) { with_linkage(i, "") } else { i.clone() }));
        }
        if first {
            // Entries defined in the other units, for the table.
            for other in groups.iter().skip(1).flatten() {
                let ki = &items.kernels[*other];
                unit.extend(ki.items.iter().filter(|i| entry_named(i, &ki.entry)).map(|i| prototype(i)));
            }
            unit.extend(items.tables.iter().cloned());
        }
        out.push(print(unit.iter()));
    }
    out
}

fn print<'a>(items: impl Iterator<Item = &'a Item>) -> String {
    let mut p = Printer::new();
    for it in items {
        p.item(it);
    }
    p.finish()
}

/// Kernels into `parts` groups, largest first into the smallest group so far (their C's
/// length stands for its compile time); each group in the kernels' own order.
fn balance(items: &ModuleItems, parts: usize) -> Vec<Vec<usize>> {
    let sizes: Vec<usize> = items.kernels.iter().map(|k| print(k.items.iter()).len()).collect();
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by_key(|k| std::cmp::Reverse(sizes[*k]));
    let mut groups = vec![Vec::new(); parts];
    let mut load = vec![0usize; parts];
    for k in order {
        let g = (0..parts).min_by_key(|g| load[*g]).unwrap();
        groups[g].push(k);
        load[g] += sizes[k];
    }
    for g in &mut groups {
        g.sort_unstable();
    }
    groups
}

fn entry_named(i: &Item, entry: &str) -> bool {
    matches!(i, Item::Func { name, body: Some(_), .. } if name == entry)
}

/// A `static` definition made visible to the other units (hidden), with `storage`.
fn with_linkage(i: &Item, storage: &'static str) -> Item {
    let mut i = i.clone();
    match &mut i {
        Item::Func { storage: s, attrs, .. } | Item::Var { storage: s, attrs, .. } => {
            *s = storage;
            attrs.push(HIDDEN.into());
        }
        _ => {}
    }
    i
}

fn prototype(i: &Item) -> Item {
    let mut i = with_linkage(i, "extern");
    if let Item::Func { body, .. } = &mut i {
        *body = None;
    }
    i
}

/// A device variable: defined in the first unit, declared in the others.
fn shared_variable(i: &Item, first: bool) -> Item {
    match i {
        Item::Var { storage: "static", .. } if first => with_linkage(i, ""),
        Item::Var { storage: "static", .. } => {
            let mut d = with_linkage(i, "extern");
            if let Item::Var { init, attrs, .. } = &mut d {
                *init = None;
                // `used` keeps a definition; a declaration has nothing to keep.
                for a in attrs.iter_mut() {
                    *a = a.replace(", used", "");
                }
            }
            d
        }
        other => other.clone(),
    }
}
