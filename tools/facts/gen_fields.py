#!/usr/bin/env python3
"""Reads CUDA's driver_types.h and writes include files listing the fields of
cudaDeviceProp and cudaFuncAttributes and the values of enum cudaDeviceAttr, so
props.cu prints every field that the installed CUDA has."""
import re, sys
hdr, outdir = sys.argv[1], sys.argv[2]
text = open(hdr).read()
text_nc = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
text_nc = re.sub(r'//[^\n]*', '', text_nc)

def struct_fields(name):
    m = re.search(r'struct\s+(?:__device_builtin__\s+)?' + name + r'\s*\{(.*?)\n\s*\}', text_nc, re.S)
    if not m:
        sys.exit('struct %s not found' % name)
    fields = []
    for decl in m.group(1).split(';'):
        decl = decl.strip()
        if not decl:
            continue
        mm = re.search(r'(\w+)\s*((?:\[[^\]]*\]\s*)*)$', decl)
        if mm:
            fields.append(mm.group(1))
    return fields

def struct_text(name):
    m = re.search(r'struct\s+(?:__device_builtin__\s+)?' + name + r'\s*\{.*?\n\s*\}[^;]*;', text, re.S)
    return m.group(0) if m else ''

for s, inc in (('cudaDeviceProp', 'prop_fields.inc'), ('cudaFuncAttributes', 'func_fields.inc')):
    with open(outdir + '/' + inc, 'w') as f:
        for fld in struct_fields(s):
            f.write('P(%s)\n' % fld)
    with open(outdir + '/' + s + '.h.txt', 'w') as f:
        f.write(struct_text(s) + '\n')

m = re.search(r'enum\s+(?:__device_builtin__\s+)?cudaDeviceAttr\s*\{(.*?)\}', text_nc, re.S)
with open(outdir + '/attr_names.inc', 'w') as f:
    for name, val in re.findall(r'(cudaDevAttr\w+)\s*=\s*(\d+)', m.group(1)):
        f.write('{%s, "%s"},\n' % (val, name))
m = re.search(r'enum\s+(?:__device_builtin__\s+)?cudaLimit\s*\{(.*?)\}', text_nc, re.S)
with open(outdir + '/limit_names.inc', 'w') as f:
    for name, val in re.findall(r'(cudaLimit\w+)\s*=\s*(0x[0-9a-fA-F]+|\d+)', m.group(1)):
        f.write('{%s, "%s"},\n' % (val, name))
