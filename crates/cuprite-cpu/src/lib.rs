//! CPU back-end: the SIMT-to-CPU transformation and C emission.
