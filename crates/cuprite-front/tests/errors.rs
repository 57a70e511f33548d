//! Syntax errors in device code: exact locations, messages, rendering and recovery.

mod common;
use common::*;

#[test]
fn missing_semicolon_points_after_previous_token() {
    assert_eq!(
        first_error("__global__ void k(int y) {\n    int x = y + 1\n    x = 2;\n}\n"),
        "test.cu:2:17: expected ';' after declaration"
    );
    assert_eq!(
        first_error("__global__ void k(int y) {\n    y = y + 1\n}\n"),
        "test.cu:2:13: expected ';' after expression"
    );
}

#[test]
fn rendering_is_gcc_style() {
    let r = parse_cu("__global__ void k(int y) {\n    int x;\n    x = y + 1\n}\n");
    let out = cuprite_front::render(&r.diagnostics[0], &r.source_map);
    // test.cu is not on disk: the preprocessed line is shown.
    assert_eq!(
        out,
        "test.cu:3:13: error: expected ';' after expression\n\
         \x20   3 |     x = y + 1\n\
         \x20     |             ^\n\
         \x20  = help: add ';'\n"
    );
}

#[test]
fn rendering_reads_the_original_file() {
    let dir = std::env::temp_dir().join(format!("cuprite-front-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("orig.cu");
    // The original line has a macro; the preprocessed one has it expanded.
    std::fs::write(&path, "#define ONE 1\n__global__ void k(int *p) {\n\tp[0] = ONE\n}\n").unwrap();
    let pp = format!("# 1 \"{}\"\n\n__global__ void k(int *p) {{\n\tp[0] = 1\n}}\n", path.display());
    let r = cuprite_front::parse(&pp);
    let out = cuprite_front::render(&r.diagnostics[0], &r.source_map);
    let expected_first = format!("{}:3:9: error: expected ';' after expression\n", path.display());
    assert!(out.starts_with(&expected_first), "{out}");
    assert!(out.contains("    3 | \tp[0] = ONE\n"), "{out}");
    assert!(out.contains("      | \t       ^\n"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn notes_are_rendered_as_gcc_notes() {
    let r = parse_cu("__global__ void k() {\n  int x = 1;\n");
    let out = cuprite_front::render_all(&r.diagnostics, &r.source_map);
    assert!(out.contains("test.cu:1:21: note: to match this '{'"), "{out}");
    assert!(out.ends_with("1 error generated.\n"), "{out}");
}

#[test]
fn recovery_reports_each_bad_statement() {
    let r = parse_cu(
        "__global__ void k(int y) {\n  int a = ;\n  for (int i = 0 i < 3; i++) { y++; }\n  y = 2;\n  return y\n}\n\
         __device__ int g() { return 1 }\n",
    );
    let msgs: Vec<String> = r
        .diagnostics
        .iter()
        .map(|d| {
            let l = r.source_map.lookup(d.span.lo);
            format!("{}:{}: {}", l.line, l.col, d.message)
        })
        .collect();
    assert_eq!(
        msgs,
        vec![
            "2:11: expected an expression before ';'",
            "3:16: expected ';' after declaration",
            "5:10: expected ';' after return statement",
            "7:29: expected ';' after return statement",
        ]
    );
    // The good statement between the errors survived.
    let f = function(&r, "k");
    assert_eq!(f.body.stmts.len(), 1);
}

#[test]
fn unsupported_constructs_are_named() {
    let cases = [
        ("auto f = []<class T>(T x) { return x; };", "lambdas with a template parameter list are not supported yet"),
        ("auto f = [p...]() { };", "pack expansions in lambda captures are not supported yet"),
        ("int v = (a <=> b);", "the '<=>' operator is not supported yet"),
        ("try { } catch (...) { }", "exception handling ('try') in device code is not supported"),
        ("asm goto(\"bra %l0;\" :::: out);", "'asm goto' is not supported"),
        ("int x = foo<int>(3);", "template-ids in device code are not supported yet"),
        ("foo bar;", "unknown type name 'foo'"),
    ];
    for (stmt, msg) in cases {
        let src = format!("__device__ void f(int *p, int *arr) {{\n  {stmt}\n}}\n");
        let got = first_error(&src);
        assert!(got.starts_with("test.cu:2:") && got.ends_with(msg), "{stmt}: {got}");
    }
}

#[test]
fn device_templates_are_parsed_and_left_to_sema() {
    // The front-end parses templates; sema refuses them until it instantiates them.
    let r = parse_cu("int x;\ntemplate <typename T>\n__global__ void k(T *p) { *p = 0; }\n");
    assert!(r.diagnostics.is_empty());
    assert!(matches!(r.tu.items[1].kind, cuprite_front::ast::ItemKind::Template { .. }));
    let l = r.source_map.lookup(r.tu.items[1].span.lo);
    assert_eq!((l.line, l.col), (2, 1));
}

#[test]
fn error_in_device_function_header_skips_the_item() {
    let r = parse_cu("__device__ void f(std::vector<int> v) { }\n__device__ int g() { return 1; }\n");
    assert_eq!(r.diagnostics.len(), 1);
    assert_eq!(r.diagnostics[0].message, "unknown type name 'std::vector'");
    function(&r, "g");
}

#[test]
fn kernel_launch_in_device_code_names_dynamic_parallelism() {
    assert_eq!(
        first_error("__global__ void child() {}\n__global__ void parent() {\n    child<<<1, 1>>>();\n}\n"),
        "test.cu:3:5: launching a kernel from device code (dynamic parallelism) is not supported yet"
    );
}

#[test]
fn asm_statements_are_parsed() {
    let r = parse_cu(
        "__device__ void f(int *p, int x) {\n  asm volatile(\"add.s32 %0, %1, \" \"%2;\" : \"=r\"(*p) : \"r\"(x), \"n\"(4) : \"memory\");\n  asm(\"membar.gl;\" ::: \"memory\");\n  asm(\"trap;\");\n}\n",
    );
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    let f = function(&r, "f");
    let cuprite_front::ast::StmtKind::Asm(a) = &f.body.stmts[0].kind else { panic!() };
    assert!(a.volatile);
    assert_eq!(a.template, "add.s32 %0, %1, %2;");
    assert_eq!(a.outputs.len(), 1);
    assert_eq!(a.outputs[0].constraint, "=r");
    assert_eq!(a.inputs.iter().map(|o| o.constraint.as_str()).collect::<Vec<_>>(), vec!["r", "n"]);
    assert_eq!(a.clobbers, vec!["memory".to_string()]);
    let cuprite_front::ast::StmtKind::Asm(b) = &f.body.stmts[1].kind else { panic!() };
    assert!(b.outputs.is_empty() && b.inputs.is_empty() && b.clobbers == vec!["memory".to_string()]);
    assert!(matches!(&f.body.stmts[2].kind, cuprite_front::ast::StmtKind::Asm(_)));
}
