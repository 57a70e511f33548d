//! `__managed__` variables: the device object holds a cell that points just past itself
//! until the runtime points it at the host shadow (`cuprite_abi.h`), and device code
//! reaches the variable through the cell.
mod common;
use common::*;
use cuprite_ir as ir;

#[test]
fn a_managed_variable_is_a_self_pointing_cell_with_the_shadow_symbol() {
    let m = compile(
        "struct S { int a; double b; };\n__managed__ S s = {1, 2.0};\n__managed__ int n[3];\n\
         __global__ void k() { s.a += n[2]; }\n",
    );
    for (name, size) in [("s", 16i64), ("n", 12)] {
        let g = m.globals.iter().find(|g| g.name == name).unwrap();
        assert_eq!(g.host_symbol.as_deref(), Some(name));
        assert_eq!(g.space, ir::AddressSpace::Global);
        let ir::Type::Array(elem, 2) = &g.ty else { panic!("{name}: {:?}", g.ty) };
        assert!(elem.is_pointer());
        let me = ir::GlobalId(m.globals.iter().position(|x| x.name == name).unwrap() as u32);
        assert_eq!(
            g.init,
            Some(ir::Init::Aggregate(vec![
                ir::Init::GlobalAddr { global: me, offset: 16 },
                ir::Init::GlobalAddr { global: me, offset: 16 + size },
            ]))
        );
    }
    // Device code loads the object's address from the cell before using it.
    let loads = insts(func(&m, "k")).into_iter().filter(|i| matches!(i, ir::InstKind::Load { .. })).count();
    assert!(loads >= 4, "two cell loads and two value loads");
}

#[test]
fn the_address_of_a_managed_variable_is_not_a_device_constant() {
    has_error("__managed__ int m;\n__device__ int *p = &m;\n__global__ void k() { *p = 1; }\n", 2, "dynamic initialization");
}
