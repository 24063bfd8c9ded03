/* Decimal text to double, for cJSON in the wasm builds (strtod.c). */
#ifndef WNN_STRTOD_H
#define WNN_STRTOD_H

/* strtod's contract for decimal numbers: optional white space and sign,
 * digits with an optional '.', an optional exponent; *end (when end is not
 * NULL) is set past the number, or to s when there is none (then 0 is
 * returned). No hexadecimal, infinity or NaN forms: JSON has none. Correctly
 * rounded when the significant digits (at most 19 are read) form an integer
 * up to 2^53 and the decimal exponent is within +-22; otherwise within a few
 * units in the last place. */
double wnn_strtod(const char *s, char **end);

#endif /* WNN_STRTOD_H */
