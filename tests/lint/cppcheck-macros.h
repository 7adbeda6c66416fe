/*
 * cppcheck-macros.h: what `make lint` tells cppcheck about library macros.
 * cppcheck is not given the system include paths (reading every libc and
 * library header would make each run slow and report on code that is not
 * ours), so a macro that hides a loop is unknown to it and it gives up on
 * the whole file ("unknownMacro").  These definitions have the shape of
 * jansson's iteration macros, enough for cppcheck to follow the loop body.
 * The compiler never sees this file.
 */
#define json_array_foreach(array, index, value)                                \
	for ((index) = 0; ((value) = json_array_get((array), (index))) != 0;   \
	     (index)++)
#define json_object_foreach(object, key, value)                                \
	for ((key) = json_object_iter_key(json_object_iter(object));           \
	     (key) && ((value) = json_object_iter_value(                       \
			       json_object_key_to_iter(key)));                 \
	     (key) = json_object_iter_key(                                     \
		     json_object_iter_next(object, json_object_key_to_iter(key))))
