//! Facts of the PTX ISA shared by the back-end and the front-end.
//!
//! Spellings are the ISA's own (PTX ISA 9.0, the version CUDA 13.0 writes).

use std::fmt;

/// A PTX fundamental type, as it appears in `.reg .u32`, `ld.global.f32`, ...
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarType {
    Pred,
    B8,
    B16,
    B32,
    B64,
    B128,
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    F16,
    F16x2,
    Bf16,
    Bf16x2,
    F32,
    F64,
}

impl ScalarType {
    /// Every type with its PTX spelling (without the leading dot).
    pub const ALL: [(ScalarType, &'static str); 20] = [
        (ScalarType::Pred, "pred"),
        (ScalarType::B8, "b8"),
        (ScalarType::B16, "b16"),
        (ScalarType::B32, "b32"),
        (ScalarType::B64, "b64"),
        (ScalarType::B128, "b128"),
        (ScalarType::U8, "u8"),
        (ScalarType::U16, "u16"),
        (ScalarType::U32, "u32"),
        (ScalarType::U64, "u64"),
        (ScalarType::S8, "s8"),
        (ScalarType::S16, "s16"),
        (ScalarType::S32, "s32"),
        (ScalarType::S64, "s64"),
        (ScalarType::F16, "f16"),
        (ScalarType::F16x2, "f16x2"),
        (ScalarType::Bf16, "bf16"),
        (ScalarType::Bf16x2, "bf16x2"),
        (ScalarType::F32, "f32"),
        (ScalarType::F64, "f64"),
    ];

    /// The PTX spelling, without the leading dot.
    pub fn name(self) -> &'static str {
        Self::ALL.iter().find(|(t, _)| *t == self).map(|(_, n)| *n).unwrap_or("?")
    }

    /// Parses a spelling with or without the leading dot.
    pub fn parse(text: &str) -> Option<ScalarType> {
        let text = text.strip_prefix('.').unwrap_or(text);
        Self::ALL.iter().find(|(_, n)| *n == text).map(|(t, _)| *t)
    }

    /// Size in bytes (a predicate has no memory size; it is reported as 1).
    pub fn size(self) -> u32 {
        use ScalarType::*;
        match self {
            Pred | B8 | U8 | S8 => 1,
            B16 | U16 | S16 | F16 | Bf16 => 2,
            B32 | U32 | S32 | F32 | F16x2 | Bf16x2 => 4,
            B64 | U64 | S64 | F64 => 8,
            B128 => 16,
        }
    }

    pub fn is_float(self) -> bool {
        use ScalarType::*;
        matches!(self, F16 | F16x2 | Bf16 | Bf16x2 | F32 | F64)
    }

    pub fn is_signed(self) -> bool {
        use ScalarType::*;
        matches!(self, S8 | S16 | S32 | S64)
    }
}

impl fmt::Display for ScalarType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, ".{}", self.name())
    }
}

/// A PTX state space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StateSpace {
    Reg,
    Sreg,
    Const,
    Global,
    Local,
    Param,
    Shared,
    /// `.shared::cluster`
    SharedCluster,
    Tex,
    /// No space named: a generic address.
    Generic,
}

impl StateSpace {
    pub const NAMED: [(StateSpace, &'static str); 9] = [
        (StateSpace::Reg, "reg"),
        (StateSpace::Sreg, "sreg"),
        (StateSpace::Const, "const"),
        (StateSpace::Global, "global"),
        (StateSpace::Local, "local"),
        (StateSpace::Param, "param"),
        (StateSpace::Shared, "shared"),
        (StateSpace::SharedCluster, "shared::cluster"),
        (StateSpace::Tex, "tex"),
    ];

    /// The PTX spelling without the dot; empty for generic.
    pub fn name(self) -> &'static str {
        Self::NAMED.iter().find(|(s, _)| *s == self).map(|(_, n)| *n).unwrap_or("")
    }

    /// Parses a spelling with or without the leading dot (`shared::cta` is `.shared`).
    pub fn parse(text: &str) -> Option<StateSpace> {
        let text = text.strip_prefix('.').unwrap_or(text);
        if text == "shared::cta" {
            return Some(StateSpace::Shared);
        }
        Self::NAMED.iter().find(|(_, n)| *n == text).map(|(s, _)| *s)
    }
}

/// The special registers real code reads (PTX ISA chapter "Special Registers").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpecialRegister {
    Tid(Axis),
    Ntid(Axis),
    Ctaid(Axis),
    Nctaid(Axis),
    LaneId,
    WarpId,
    NWarpId,
    SmId,
    NSmId,
    GridId,
    LanemaskEq,
    LanemaskLe,
    LanemaskLt,
    LanemaskGe,
    LanemaskGt,
    Clock,
    ClockHi,
    Clock64,
    GlobalTimer,
    GlobalTimerLo,
    GlobalTimerHi,
    DynamicSmemSize,
    TotalSmemSize,
    /// `%envreg0`…`%envreg31`: values the driver passes to a launch. nvcc's grid barrier
    /// (cooperative groups' `grid.sync()`) reads its workspace address from `%envreg1`
    /// (high half) and `%envreg2` (low half); 0 outside a cooperative launch.
    EnvReg(u8),
    /// `%reserved_smem_offset_begin`, `_end`, `_cap`, `_0`, `_1`: the shared memory the
    /// system reserves in each block (cooperative groups keep multi-warp tile state there).
    ReservedSmemOffset(ReservedSmem),
    /// Clusters (sm_90): `%clusterid`, `%nclusterid`, `%cluster_ctaid`, `%cluster_nctaid`
    /// (with an axis), `%cluster_ctarank`, `%cluster_nctarank`, `%is_explicit_cluster`.
    ClusterId(Axis),
    NClusterId(Axis),
    ClusterCtaid(Axis),
    ClusterNctaid(Axis),
    ClusterCtarank,
    ClusterNctarank,
    IsExplicitCluster,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReservedSmem {
    Begin,
    End,
    Cap,
    Offset0,
    Offset1,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Axis {
    X,
    Y,
    Z,
}

impl SpecialRegister {
    /// Parses `%tid.x`, `%laneid`, ... (with or without the `%`).
    pub fn parse(text: &str) -> Option<SpecialRegister> {
        use SpecialRegister::*;
        let text = text.strip_prefix('%').unwrap_or(text);
        let (base, axis) = match text.split_once('.') {
            Some((b, "x")) => (b, Some(Axis::X)),
            Some((b, "y")) => (b, Some(Axis::Y)),
            Some((b, "z")) => (b, Some(Axis::Z)),
            Some(_) => return None,
            None => (text, None),
        };
        Some(match (base, axis) {
            ("tid", Some(a)) => Tid(a),
            ("ntid", Some(a)) => Ntid(a),
            ("ctaid", Some(a)) => Ctaid(a),
            ("nctaid", Some(a)) => Nctaid(a),
            ("laneid", None) => LaneId,
            ("warpid", None) => WarpId,
            ("nwarpid", None) => NWarpId,
            ("smid", None) => SmId,
            ("nsmid", None) => NSmId,
            ("gridid", None) => GridId,
            ("lanemask_eq", None) => LanemaskEq,
            ("lanemask_le", None) => LanemaskLe,
            ("lanemask_lt", None) => LanemaskLt,
            ("lanemask_ge", None) => LanemaskGe,
            ("lanemask_gt", None) => LanemaskGt,
            ("clock", None) => Clock,
            ("clock_hi", None) => ClockHi,
            ("clock64", None) => Clock64,
            ("globaltimer", None) => GlobalTimer,
            ("globaltimer_lo", None) => GlobalTimerLo,
            ("globaltimer_hi", None) => GlobalTimerHi,
            ("dynamic_smem_size", None) => DynamicSmemSize,
            ("total_smem_size", None) => TotalSmemSize,
            ("reserved_smem_offset_begin", None) => ReservedSmemOffset(ReservedSmem::Begin),
            ("reserved_smem_offset_end", None) => ReservedSmemOffset(ReservedSmem::End),
            ("reserved_smem_offset_cap", None) => ReservedSmemOffset(ReservedSmem::Cap),
            ("reserved_smem_offset_0", None) => ReservedSmemOffset(ReservedSmem::Offset0),
            ("reserved_smem_offset_1", None) => ReservedSmemOffset(ReservedSmem::Offset1),
            (e, None) if e.starts_with("envreg") => {
                let digits = &e["envreg".len()..];
                let canonical = digits == "0" || !digits.starts_with('0');
                match digits.parse::<u8>() {
                    Ok(n) if n < 32 && canonical => EnvReg(n),
                    _ => return None,
                }
            }
            ("clusterid", Some(a)) => ClusterId(a),
            ("nclusterid", Some(a)) => NClusterId(a),
            ("cluster_ctaid", Some(a)) => ClusterCtaid(a),
            ("cluster_nctaid", Some(a)) => ClusterNctaid(a),
            ("cluster_ctarank", None) => ClusterCtarank,
            ("cluster_nctarank", None) => ClusterNctarank,
            ("is_explicit_cluster", None) => IsExplicitCluster,
            _ => return None,
        })
    }

    /// The register's type as the ISA declares it.
    pub fn ty(self) -> ScalarType {
        use SpecialRegister::*;
        match self {
            Clock64 | GlobalTimer | GridId => ScalarType::U64,
            IsExplicitCluster => ScalarType::Pred,
            _ => ScalarType::U32,
        }
    }
}

/// The `.version` and `.target` a module for compute capability `sm` takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// Compute capability as nvcc spells it: 75, 80, 86, 89, 90.
    pub sm: u32,
    /// `sm_90a`'s architecture-specific features.
    pub arch_specific: bool,
}

impl Target {
    /// The PTX ISA version CUDA 13.0 writes (it writes 9.0 for every target it supports).
    pub const ISA_VERSION: (u32, u32) = (9, 0);

    /// The oldest compute capability CUDA 13 supports.
    pub const OLDEST_SM: u32 = 75;

    /// `.target sm_90a` etc.
    pub fn directive_name(self) -> String {
        format!("sm_{}{}", self.sm, if self.arch_specific { "a" } else { "" })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_round_trip() {
        for (t, n) in ScalarType::ALL {
            assert_eq!(ScalarType::parse(n), Some(t));
            assert_eq!(ScalarType::parse(&format!(".{n}")), Some(t));
        }
        for (s, n) in StateSpace::NAMED {
            assert_eq!(StateSpace::parse(n), Some(s));
        }
        assert_eq!(StateSpace::parse(".shared::cta"), Some(StateSpace::Shared));
        assert_eq!(SpecialRegister::parse("%tid.y"), Some(SpecialRegister::Tid(Axis::Y)));
        assert_eq!(SpecialRegister::parse("%laneid"), Some(SpecialRegister::LaneId));
        assert_eq!(SpecialRegister::parse("%tid"), None);
        assert_eq!(SpecialRegister::Clock64.ty(), ScalarType::U64);
    }
}
