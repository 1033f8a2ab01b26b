#include "rules.h"

#include <string.h>

const wn_rule_def wn_rule_defs[WN_RULE_COUNT] = {
#define WN_RULE_ROW(name, d, o, stage, why) {#name, stage, why, d, o},
    WN_RULES(WN_RULE_ROW)
#undef WN_RULE_ROW
};

void wn_rules_default(wn_rules *r)
{
    for (int i = 0; i < WN_RULE_COUNT; i++) r->v[i] = wn_rule_defs[i].def;
}

int wn_rule_find(const char *name)
{
    for (int i = 0; name && i < WN_RULE_COUNT; i++)
        if (!strcmp(wn_rule_defs[i].name, name)) return i;
    return -1;
}
