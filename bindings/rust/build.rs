//! Finds libtrainsize.so: $TRAINSIZE_LIB_DIR first, else `pkg-config --libs-only-L
//! libtrainsize`, else the linker's default search path. Every directory found is also put
//! in the rpath of this crate's tests and examples, so they run without LD_LIBRARY_PATH.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

fn lib_dir_from_env() -> Option<PathBuf> {
    let dir = env::var_os("TRAINSIZE_LIB_DIR")?;
    if dir.is_empty() {
        return None;
    }
    let dir = PathBuf::from(dir);
    // The rpath must be absolute; a relative directory is taken from the crate's root,
    // where Cargo runs this script.
    let dir = if dir.is_absolute() {
        dir
    } else {
        env::current_dir().map(|cwd| cwd.join(&dir)).unwrap_or(dir)
    };
    Some(dir.canonicalize().unwrap_or(dir))
}

fn lib_dirs_from_pkg_config() -> Option<Vec<PathBuf>> {
    let pkg_config = env::var_os("PKG_CONFIG").unwrap_or_else(|| "pkg-config".into());
    let out = Command::new(pkg_config)
        .args(["--libs-only-L", "libtrainsize"])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout);
    Some(
        text.split_whitespace()
            .filter_map(|word| word.strip_prefix("-L"))
            .filter(|dir| !dir.is_empty())
            .map(PathBuf::from)
            .collect(),
    )
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=TRAINSIZE_LIB_DIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_LIBDIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_SYSROOT_DIR");

    let dirs: Vec<PathBuf> = if let Some(dir) = lib_dir_from_env() {
        if !dir.join("libtrainsize.so").exists() {
            println!(
                "cargo:warning=TRAINSIZE_LIB_DIR={} holds no libtrainsize.so",
                dir.display()
            );
        }
        vec![dir]
    } else {
        // None (no pkg-config, or no libtrainsize.pc) or an empty list (a default
        // directory): the linker's default search path.
        lib_dirs_from_pkg_config().unwrap_or_default()
    };

    for dir in &dirs {
        emit_dir(dir);
    }
    println!("cargo:rustc-link-lib=dylib=trainsize");
}

fn emit_dir(dir: &Path) {
    println!("cargo:rustc-link-search=native={}", dir.display());
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.display());
    // For crates that depend on this one (links = "trainsize"): DEP_TRAINSIZE_LIB_DIR.
    println!("cargo:lib_dir={}", dir.display());
}
