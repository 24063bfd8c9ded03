# Toolchain: WASI commands (wasm32-wasi) with Debian's clang, wasi-libc,
# libclang-rt-14-dev-wasm32 (compiler-rt builtins) and lld (wasm-ld) — the
# parts of the WASI SDK that Debian packages.
#
#   cmake --preset wasi     (or -DCMAKE_TOOLCHAIN_FILE=cmake/wasi.cmake)
#
# Test programs built here run under Node through wasm/run-wasi.mjs, which
# ctest calls as the cross-compiling emulator.
list(APPEND CMAKE_MODULE_PATH "${CMAKE_CURRENT_LIST_DIR}")
set(CMAKE_SYSTEM_NAME WASI)
set(CMAKE_SYSTEM_VERSION 1)
set(CMAKE_SYSTEM_PROCESSOR wasm32)

# WNN_WASI_RELAXED (the wasi-relaxed preset): the kernel tests of
# dist/wnn-relaxed.wasm's kernels, compiled by clang-19 with -mrelaxed-simd
# (clang 14 cannot encode relaxed SIMD) and run by Node with
# --experimental-wasm-relaxed-simd. Linked at -O0: an optimized link makes
# clang-19 run binaryen's wasm-opt, and Debian's (108) cannot read the final
# relaxed SIMD opcodes (the code itself is compiled at the preset's -O2).
if(WNN_WASI_RELAXED)
  set(CMAKE_C_COMPILER clang-19)
else()
  set(CMAKE_C_COMPILER clang)
endif()
set(CMAKE_C_COMPILER_TARGET wasm32-wasi)
# GNU ar cannot index wasm objects; wasm-ld needs the index.
find_program(WNN_LLVM_AR NAMES llvm-ar-14 llvm-ar REQUIRED)
find_program(WNN_LLVM_RANLIB NAMES llvm-ranlib-14 llvm-ranlib REQUIRED)
set(CMAKE_AR "${WNN_LLVM_AR}" CACHE FILEPATH "" FORCE)
set(CMAKE_RANLIB "${WNN_LLVM_RANLIB}" CACHE FILEPATH "" FORCE)

# Debian's clang searches /usr/include for wasm32-wasi too; keep host headers
# out so a wasm build can only see wasi-libc's headers and the ones the build
# names (.deps/include for cJSON and DLPack).
set(CMAKE_C_FLAGS_INIT "-nostdlibinc -isystem /usr/include/wasm32-wasi")
# 1 MiB of stack (wasm-ld's default is 64 KiB). CMake passes the compile flags
# to the link too, where -nostdlibinc has nothing to do.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-Wl,-z,stack-size=1048576 -Wno-unused-command-line-argument")
# wasi-libc's libc.a carries DWARF; a release module does not need it. (clang
# runs wasm-opt on the linked module by itself when it is on PATH and -O is set.)
set(CMAKE_EXE_LINKER_FLAGS_RELEASE_INIT "-Wl,--strip-debug")

set(CMAKE_FIND_ROOT_PATH /usr/lib/wasm32-wasi /usr/include/wasm32-wasi)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# ctest runs every test program as `node wasm/run-wasi.mjs PROGRAM.wasm ARGS`.
get_filename_component(WNN_RUN_WASI "${CMAKE_CURRENT_LIST_DIR}/../wasm/run-wasi.mjs" ABSOLUTE)
if(WNN_WASI_RELAXED)
  set(CMAKE_CROSSCOMPILING_EMULATOR "node;--experimental-wasm-relaxed-simd;${WNN_RUN_WASI}")
  add_compile_options(-mrelaxed-simd)
  add_link_options(-O0)
else()
  set(CMAKE_CROSSCOMPILING_EMULATOR "node;${WNN_RUN_WASI}")
endif()
