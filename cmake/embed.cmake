# Writes OUTPUT: a C file holding INPUT's bytes as NAME (default
# wn_default_model; empty when INPUT does not exist), so the built library
# carries its model (and its DF table, models/default.df.gz).
if(NOT NAME)
  set(NAME wn_default_model)
endif()
if(EXISTS "${INPUT}")
  file(READ "${INPUT}" hex HEX)
  string(LENGTH "${hex}" hexlen)
  math(EXPR len "${hexlen} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
  string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" body "${body}")
else()
  set(len 0)
  set(body "0")
endif()
file(WRITE "${OUTPUT}.tmp" "/* generated from ${INPUT} by cmake/embed.cmake */\n#include <stddef.h>\nconst unsigned char ${NAME}[] = {\n${body}\n};\nconst size_t ${NAME}_len = ${len};\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
