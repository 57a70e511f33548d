//! CUDA arrays, texture objects and surface objects.
//!
//! A `cudaArray_t` is a pointer to an [`array::Array`] (row-major texels, rows packed);
//! a `cudaTextureObject_t` / `cudaSurfaceObject_t` is the address of an
//! [`object::TexObj`] / [`object::SurfObj`] that describes its memory directly, so a
//! fetch in device code reads through the handle without a runtime lookup
//! (`__cuprite_tex_fetch`, `__cuprite_surf_access`). Addressing and filtering follow the
//! Programming Guide's texture-fetching appendix (`filter.rs`).

pub mod array;
pub mod filter;
pub mod format;
pub mod lod;
pub mod mipmap;
pub mod object;
pub mod srgb;
