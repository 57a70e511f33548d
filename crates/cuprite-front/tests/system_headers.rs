//! Real preprocessed system headers (libstdc++ and glibc through `c++ -E`) parse without
//! errors, and the kernel after them is parsed.

use cuprite_front::ast::ItemKind;
use std::io::Write;
use std::process::{Command, Stdio};

fn preprocess(src: &str) -> Option<String> {
    let mut child = Command::new("c++")
        .args(["-E", "-x", "c++", "-D__CUDA_ARCH__=900", "-D__CUDACC__", "-D__CUPRITE_DEVICE_PASS__", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    child.stdin.take()?.write_all(src.as_bytes()).ok()?;
    let out = child.wait_with_output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

fn find_fn<'a>(items: &'a [cuprite_front::ast::Item], name: &str) -> bool {
    items.iter().any(|i| match &i.kind {
        ItemKind::FunctionDef(f) => f.declarator.name.as_ref().is_some_and(|p| p.last().name == name),
        ItemKind::Namespace { items, .. } | ItemKind::LinkageSpec { items, .. } => find_fn(items, name),
        _ => false,
    })
}

#[test]
fn iostream_vector_cstdio_cmath() {
    let src = "#include <iostream>\n#include <vector>\n#include <cstdio>\n#include <cmath>\n\
               #include <cstdlib>\n#include <cstring>\n#include <string>\n#include <algorithm>\n#include <chrono>\n\
               __global__ void kern(float *a, size_t n) {\n  size_t i = threadIdx.x;\n  \
               if (i < n) a[i] = sqrtf(a[i]) + (float)M_PI;\n  printf(\"%f\\n\", a[i]);\n}\n\
               int main() { std::vector<float> v(16); std::cout << v.size() << std::endl; }\n";
    let Some(pp) = preprocess(src) else {
        eprintln!("no c++ compiler: skipped");
        return;
    };
    let start = std::time::Instant::now();
    let r = cuprite_front::parse(&pp);
    let elapsed = start.elapsed();
    assert!(
        r.diagnostics.is_empty(),
        "{}",
        cuprite_front::render_all(&r.diagnostics, &r.source_map)
    );
    assert!(find_fn(&r.tu.items, "kern"), "the kernel is parsed");
    eprintln!("parsed {} bytes in {:?} (debug builds are ~10x slower than release)", pp.len(), elapsed);
}
