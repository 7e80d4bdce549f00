/**
 * @file trainsize_export.h
 * @brief The export macro of libtrainsize's public functions.
 *
 * The library is built with hidden default visibility; only declarations marked
 * TRAINSIZE_API are exported. Define TRAINSIZE_STATIC when linking the static library
 * on Windows. The macro may be predefined by the including build to override it.
 */
#ifndef TRAINSIZE_EXPORT_H
#define TRAINSIZE_EXPORT_H

#ifndef TRAINSIZE_API
#  if defined(_WIN32) && !defined(TRAINSIZE_STATIC)
#    if defined(TRAINSIZE_BUILDING)
#      define TRAINSIZE_API __declspec(dllexport)
#    else
#      define TRAINSIZE_API __declspec(dllimport)
#    endif
#  elif defined(__GNUC__) || defined(__clang__)
/** Marks a public, exported function. */
#    define TRAINSIZE_API __attribute__((visibility("default")))
#  else
#    define TRAINSIZE_API
#  endif
#endif

#endif /* TRAINSIZE_EXPORT_H */
