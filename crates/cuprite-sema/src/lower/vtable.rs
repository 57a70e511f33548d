//! Vtables: one constant table per dynamic class whose vtable a constructor stores (see
//! `check::virtuals`): `void *[n]` holding the final overrider of each slot (null for
//! a pure virtual function without a definition), made on first use.

use super::ModLower;
use crate::ty::RecId;
use cuprite_ir as ir;

impl<'a> ModLower<'a> {
    pub fn vtable_global(&mut self, r: RecId) -> ir::GlobalId {
        if let Some(g) = self.vtables.get(&r) {
            return *g;
        }
        let slots = self.prog.classes.get(&r).map(|i| i.vtable.clone()).unwrap_or_default();
        let items: Vec<ir::Init> = slots
            .iter()
            .map(|s| match s.and_then(|f| self.funcs.get(&f)) {
                Some(fid) => ir::Init::FuncAddr(*fid),
                None => ir::Init::Zero,
            })
            .collect();
        let d = self.prog.types.rec(r);
        let mut name = d.scope.join("::");
        if !name.is_empty() {
            name.push_str("::");
        }
        name.push_str(d.name.as_deref().unwrap_or("anon"));
        let gid = ir::GlobalId(self.module.globals.len() as u32);
        let n = items.len().max(1) as u64;
        self.module.globals.push(ir::Global {
            name: format!("vtable.{name}"),
            ty: ir::Type::Array(Box::new(ir::Type::Void.ptr_to()), n),
            space: ir::AddressSpace::Constant,
            align: None,
            init: Some(ir::Init::Aggregate(items)),
            host_symbol: None,
            dynamic_shared: false,
            external: false,
            loc: None,
        });
        self.vtables.insert(r, gid);
        gid
    }
}
