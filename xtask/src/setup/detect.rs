//! Finding the tools the build needs the way their consumers find them.
//!
//! A tool counts as present only where the program that uses it would find it:
//! libclang where bindgen (through clang-sys, loading at run time) looks, cmake and
//! the C compiler where the `cmake` and `cc` crates look. Detection reads a [`Probe`],
//! so tests can point it at a fake tree.

use std::path::{Path, PathBuf};

/// What detection may look at: a filesystem root, `PATH` and the variables the
/// consumers read. [`Probe::system`] is the real machine.
#[derive(Debug, Clone, Default)]
pub(crate) struct Probe {
    /// Prepended to every absolute directory searched (`/` on the real machine).
    pub(crate) root: PathBuf,
    /// The directories of `PATH`.
    pub(crate) path: Vec<PathBuf>,
    /// `LIBCLANG_PATH`: a directory holding libclang, or the library itself.
    pub(crate) libclang_path: Option<PathBuf>,
    /// What `llvm-config --prefix` printed, if it ran.
    pub(crate) llvm_prefix: Option<PathBuf>,
    /// `CMAKE`, read by the `cmake` crate instead of `cmake` on `PATH`.
    pub(crate) cmake: Option<PathBuf>,
    /// `CC`, read by the `cc` crate instead of `cc` on `PATH`.
    pub(crate) cc: Option<PathBuf>,
}

impl Probe {
    /// This machine, as the build scripts will see it.
    pub(crate) fn system() -> Self {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        let path = std::env::var_os("PATH").map(|p| std::env::split_paths(&p).collect()).unwrap_or_default();
        let llvm_config = var("LLVM_CONFIG_PATH").unwrap_or_else(|| "llvm-config".into());
        let llvm_prefix = std::process::Command::new(llvm_config)
            .arg("--prefix")
            .output()
            .ok()
            .filter(|o| o.status.success())
            .and_then(|o| String::from_utf8_lossy(&o.stdout).lines().next().map(PathBuf::from));
        Self {
            root: PathBuf::from("/"),
            path,
            libclang_path: var("LIBCLANG_PATH"),
            llvm_prefix,
            cmake: var("CMAKE"),
            cc: var("CC"),
        }
    }

    /// An absolute path of the probed system as a path on this machine.
    fn at(&self, path: &Path) -> PathBuf {
        self.root.join(path.strip_prefix("/").unwrap_or(path))
    }

    /// The executable `name` as a program would find it: a path as given, or a bare
    /// name searched on `PATH`.
    fn program(&self, name: &Path) -> Option<PathBuf> {
        if name.components().count() > 1 {
            let path = self.at(name);
            return is_executable(&path).then_some(path);
        }
        self.path.iter().map(|dir| self.at(dir).join(name)).find(|p| is_executable(p))
    }

    /// cmake as the `cmake` crate runs it (`CMAKE`, else `cmake` on `PATH`).
    pub(crate) fn cmake(&self) -> Option<PathBuf> {
        self.program(self.cmake.as_deref().unwrap_or(Path::new("cmake")))
    }

    /// The C compiler as the `cc` crate runs it on Linux (`CC`, else `cc` on `PATH`).
    pub(crate) fn cc(&self) -> Option<PathBuf> {
        self.program(self.cc.as_deref().unwrap_or(Path::new("cc")))
    }

    /// Debian's AArch64 cross compiler, as the linker, the `cc` crate and cmake call it.
    pub(crate) fn aarch64_gcc(&self) -> Option<PathBuf> {
        self.program(Path::new("aarch64-linux-gnu-gcc"))
    }

    /// The AArch64 C library's dynamic loader, where `qemu-aarch64 -L` finds it.
    pub(crate) fn aarch64_libc(&self) -> Option<PathBuf> {
        let loader = self.at(Path::new("/usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1"));
        loader.exists().then_some(loader)
    }

    /// LLVM 16's llvm-mca, where Debian's `llvm-16` puts it (the first LLVM in Debian
    /// with a scheduling model of a Neoverse core: N2's).
    pub(crate) fn llvm_mca(&self) -> Option<PathBuf> {
        let mca = self.at(Path::new("/usr/lib/llvm-16/bin/llvm-mca"));
        mca.exists().then_some(mca)
    }

    /// qemu-user's AArch64 emulator on `PATH`.
    pub(crate) fn qemu_aarch64(&self) -> Option<PathBuf> {
        self.program(Path::new("qemu-aarch64"))
    }

    /// The libclang shared library bindgen would load, or `None`.
    ///
    /// clang-sys's run-time search, in its order: `LIBCLANG_PATH` alone when set (a
    /// file, or a directory searched for one); else `llvm-config --prefix`'s `bin`,
    /// `lib` and `lib64`; else the usual library directories. In each directory the
    /// names `libclang.so`, `libclang-*.so`, `libclang.so.*` and `libclang-*.so.*`
    /// count, never LLVM's C++ library `libclang-cpp`, and only an ELF file of this
    /// machine's word size.
    pub(crate) fn libclang(&self) -> Option<PathBuf> {
        if let Some(given) = &self.libclang_path {
            let given = self.at(given);
            if given.is_file() {
                return is_libclang(&given).then_some(given);
            }
            return libclang_in(&given);
        }
        let prefix_dirs = self.llvm_prefix.iter().flat_map(|p| ["bin", "lib", "lib64"].map(|d| self.at(&p.join(d))));
        prefix_dirs.chain(self.library_dirs()).find_map(|dir| libclang_in(&dir))
    }

    /// The directories clang-sys searches on Linux when nothing points it elsewhere,
    /// most specific first.
    fn library_dirs(&self) -> Vec<PathBuf> {
        const PATTERNS: [&str; 7] = [
            "usr/local/llvm*/lib*",
            "usr/local/lib*/*/*",
            "usr/local/lib*/*",
            "usr/local/lib*",
            "usr/lib*/*/*",
            "usr/lib*/*",
            "usr/lib*",
        ];
        let root = glob::Pattern::escape(&self.root.to_string_lossy());
        let options = glob::MatchOptions { require_literal_separator: true, ..Default::default() };
        PATTERNS
            .iter()
            .filter_map(|p| glob::glob_with(&format!("{root}/{p}"), options).ok())
            .flat_map(|paths| paths.flatten().filter(|p| p.is_dir()))
            .collect()
    }
}

/// The first libclang shared library in `dir` (no subdirectories).
fn libclang_in(dir: &Path) -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir).ok()?.flatten().map(|e| e.path()).collect();
    found.sort();
    found.into_iter().find(|p| is_libclang(p))
}

/// Whether `path` is a libclang shared library bindgen can load: the right name and an
/// ELF file of this machine's word size.
fn is_libclang(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else { return false };
    let named = name == "libclang.so"
        || name.starts_with("libclang.so.")
        || (name.starts_with("libclang-") && (name.ends_with(".so") || name.contains(".so.")));
    if !named || name.contains("-cpp.") {
        return false;
    }
    let mut header = [0u8; 5];
    let read = std::fs::File::open(path).and_then(|mut f| std::io::Read::read_exact(&mut f, &mut header));
    let class = if cfg!(target_pointer_width = "64") { 2 } else { 1 };
    read.is_ok() && header[..4] == *b"\x7fELF" && header[4] == class
}

/// Whether `path` is a file someone may execute.
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A fresh empty directory under the system temp dir, removed when dropped.
    pub(crate) struct Tree(PathBuf);

    impl std::ops::Deref for Tree {
        type Target = Path;
        fn deref(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for Tree {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    pub(crate) fn tree(name: &str) -> Tree {
        let dir = std::env::temp_dir().join(format!("xtask-detect-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Tree(dir)
    }

    /// Writes a file under `root`; `elf` gives it a 64-bit ELF header.
    fn file(root: &Path, rel: &str, elf: bool) -> PathBuf {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, if elf { &b"\x7fELF\x02\x01\x01rest"[..] } else { b"INPUT(libclang.so.1)" }).unwrap();
        path
    }

    fn probe(root: &Path) -> Probe {
        Probe { root: root.to_owned(), ..Probe::default() }
    }

    #[test]
    fn libclang_cpp_alone_is_not_libclang() {
        // A fresh machine of this kind: LLVM's C++ library only (the set-up bug).
        let root = tree("cpp-only");
        file(&root, "usr/lib/x86_64-linux-gnu/libclang-cpp.so.14", true);
        file(&root, "usr/lib/llvm-14/lib/libclang-cpp.so.14", true);
        assert_eq!(probe(&root).libclang(), None);
    }

    #[test]
    fn debian_libclang_dev_layout_is_found() {
        let root = tree("debian");
        file(&root, "usr/lib/x86_64-linux-gnu/libclang-cpp.so.14", true);
        let lib = file(&root, "usr/lib/llvm-14/lib/libclang-14.so.1", true);
        assert_eq!(probe(&root).libclang(), Some(lib));
    }

    #[test]
    fn every_name_clang_sys_loads_is_found() {
        for name in ["libclang.so", "libclang-17.so", "libclang.so.1", "libclang-14.so.14.0.6"] {
            let root = tree(&format!("name-{name}"));
            let lib = file(&root, &format!("usr/lib/{name}"), true);
            assert_eq!(probe(&root).libclang(), Some(lib), "{name}");
        }
        for name in ["libclang.a", "libclang-cpp.so", "libclang_rt.asan.so", "libclangBasic.a", "libclang-cpp.so.14"] {
            let root = tree(&format!("not-{name}"));
            file(&root, &format!("usr/lib/{name}"), true);
            assert_eq!(probe(&root).libclang(), None, "{name}");
        }
    }

    #[test]
    fn a_file_that_is_not_elf_is_not_loaded() {
        let root = tree("script");
        file(&root, "usr/lib/libclang.so", false);
        assert_eq!(probe(&root).libclang(), None);
    }

    #[test]
    fn libclang_path_is_the_only_place_searched_when_set() {
        let root = tree("libclang-path");
        file(&root, "usr/lib/libclang.so", true);
        let custom = file(&root, "opt/llvm/lib/libclang.so.18", true);
        let mut p = probe(&root);
        p.libclang_path = Some("/opt/llvm/lib".into());
        assert_eq!(p.libclang(), Some(custom.clone()));
        p.libclang_path = Some("/opt/llvm/lib/libclang.so.18".into());
        assert_eq!(p.libclang(), Some(custom));
        p.libclang_path = Some("/opt/empty".into());
        assert_eq!(p.libclang(), None, "no fallback to the usual directories, as in clang-sys");
    }

    #[test]
    fn llvm_config_prefix_is_searched() {
        let root = tree("llvm-config");
        let lib = file(&root, "opt/llvm-19/lib/libclang.so.19.1", true);
        let mut p = probe(&root);
        assert_eq!(p.libclang(), None);
        p.llvm_prefix = Some("/opt/llvm-19".into());
        assert_eq!(p.libclang(), Some(lib));
    }

    #[test]
    fn programs_are_found_on_path_or_by_their_variable() {
        use std::os::unix::fs::PermissionsExt;
        let root = tree("programs");
        let mut p = probe(&root);
        p.path = vec!["/usr/bin".into()];
        assert_eq!((p.cmake(), p.cc()), (None, None));
        let cmake = file(&root, "usr/bin/cmake", false);
        let cc = file(&root, "opt/gcc/bin/gcc", false);
        for f in [&cmake, &cc] {
            std::fs::set_permissions(f, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        p.cc = Some("/opt/gcc/bin/gcc".into());
        assert_eq!((p.cmake(), p.cc()), (Some(cmake), Some(cc)));
        let plain = file(&root, "usr/bin/cc", false);
        std::fs::set_permissions(&plain, std::fs::Permissions::from_mode(0o644)).unwrap();
        p.cc = None;
        assert_eq!(p.cc(), None, "a file that is not executable is not a compiler");
    }
}
