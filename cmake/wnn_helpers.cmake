# Source scanning helpers for CMakeLists.txt.

# wnn_split_mains(<files> <with_main_var> <without_main_var>)
# Splits C files into those that define main() and the rest (shared code such
# as the CLI's .npy reader, or a test helper file).
function(wnn_split_mains files with_var without_var)
  set(with "")
  set(without "")
  foreach(f IN LISTS files)
    file(READ "${f}" text)
    if(text MATCHES "(^|\n)[ \t]*(static[ \t]+)?int[ \t\n]+main[ \t]*\\(")
      list(APPEND with "${f}")
    else()
      list(APPEND without "${f}")
    endif()
  endforeach()
  set(${with_var} "${with}" PARENT_SCOPE)
  set(${without_var} "${without}" PARENT_SCOPE)
endfunction()

# wnn_read_names(<file> <out_var>)
# Reads an export list: one C name per line; blank lines and lines starting
# with # are ignored.
function(wnn_read_names file out_var)
  file(STRINGS "${file}" lines)
  set(names "")
  foreach(line IN LISTS lines)
    string(STRIP "${line}" line)
    if(line STREQUAL "" OR line MATCHES "^#")
      continue()
    endif()
    list(APPEND names "${line}")
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${file}")
  set(${out_var} "${names}" PARENT_SCOPE)
endfunction()
