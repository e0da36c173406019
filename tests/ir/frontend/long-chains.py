# RUN: tessera compile %s --entry flat --signature "*fp32,i32" | FileCheck %s
# Flat chains are bounded at 1000 links, well above the 200 levels of
# bracket nesting: a 400-term sum and 300 if/elif branches compile.
# CHECK: kernel @flat
import tessera.language as tl


def flat(X, n):
    x = tl.load(X)
    y = x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x
    if n == 0:
        x = x + 1.0
    elif n == 1:
        x = x + 1.0
    elif n == 2:
        x = x + 1.0
    elif n == 3:
        x = x + 1.0
    elif n == 4:
        x = x + 1.0
    elif n == 5:
        x = x + 1.0
    elif n == 6:
        x = x + 1.0
    elif n == 7:
        x = x + 1.0
    elif n == 8:
        x = x + 1.0
    elif n == 9:
        x = x + 1.0
    elif n == 10:
        x = x + 1.0
    elif n == 11:
        x = x + 1.0
    elif n == 12:
        x = x + 1.0
    elif n == 13:
        x = x + 1.0
    elif n == 14:
        x = x + 1.0
    elif n == 15:
        x = x + 1.0
    elif n == 16:
        x = x + 1.0
    elif n == 17:
        x = x + 1.0
    elif n == 18:
        x = x + 1.0
    elif n == 19:
        x = x + 1.0
    elif n == 20:
        x = x + 1.0
    elif n == 21:
        x = x + 1.0
    elif n == 22:
        x = x + 1.0
    elif n == 23:
        x = x + 1.0
    elif n == 24:
        x = x + 1.0
    elif n == 25:
        x = x + 1.0
    elif n == 26:
        x = x + 1.0
    elif n == 27:
        x = x + 1.0
    elif n == 28:
        x = x + 1.0
    elif n == 29:
        x = x + 1.0
    elif n == 30:
        x = x + 1.0
    elif n == 31:
        x = x + 1.0
    elif n == 32:
        x = x + 1.0
    elif n == 33:
        x = x + 1.0
    elif n == 34:
        x = x + 1.0
    elif n == 35:
        x = x + 1.0
    elif n == 36:
        x = x + 1.0
    elif n == 37:
        x = x + 1.0
    elif n == 38:
        x = x + 1.0
    elif n == 39:
        x = x + 1.0
    elif n == 40:
        x = x + 1.0
    elif n == 41:
        x = x + 1.0
    elif n == 42:
        x = x + 1.0
    elif n == 43:
        x = x + 1.0
    elif n == 44:
        x = x + 1.0
    elif n == 45:
        x = x + 1.0
    elif n == 46:
        x = x + 1.0
    elif n == 47:
        x = x + 1.0
    elif n == 48:
        x = x + 1.0
    elif n == 49:
        x = x + 1.0
    elif n == 50:
        x = x + 1.0
    elif n == 51:
        x = x + 1.0
    elif n == 52:
        x = x + 1.0
    elif n == 53:
        x = x + 1.0
    elif n == 54:
        x = x + 1.0
    elif n == 55:
        x = x + 1.0
    elif n == 56:
        x = x + 1.0
    elif n == 57:
        x = x + 1.0
    elif n == 58:
        x = x + 1.0
    elif n == 59:
        x = x + 1.0
    elif n == 60:
        x = x + 1.0
    elif n == 61:
        x = x + 1.0
    elif n == 62:
        x = x + 1.0
    elif n == 63:
        x = x + 1.0
    elif n == 64:
        x = x + 1.0
    elif n == 65:
        x = x + 1.0
    elif n == 66:
        x = x + 1.0
    elif n == 67:
        x = x + 1.0
    elif n == 68:
        x = x + 1.0
    elif n == 69:
        x = x + 1.0
    elif n == 70:
        x = x + 1.0
    elif n == 71:
        x = x + 1.0
    elif n == 72:
        x = x + 1.0
    elif n == 73:
        x = x + 1.0
    elif n == 74:
        x = x + 1.0
    elif n == 75:
        x = x + 1.0
    elif n == 76:
        x = x + 1.0
    elif n == 77:
        x = x + 1.0
    elif n == 78:
        x = x + 1.0
    elif n == 79:
        x = x + 1.0
    elif n == 80:
        x = x + 1.0
    elif n == 81:
        x = x + 1.0
    elif n == 82:
        x = x + 1.0
    elif n == 83:
        x = x + 1.0
    elif n == 84:
        x = x + 1.0
    elif n == 85:
        x = x + 1.0
    elif n == 86:
        x = x + 1.0
    elif n == 87:
        x = x + 1.0
    elif n == 88:
        x = x + 1.0
    elif n == 89:
        x = x + 1.0
    elif n == 90:
        x = x + 1.0
    elif n == 91:
        x = x + 1.0
    elif n == 92:
        x = x + 1.0
    elif n == 93:
        x = x + 1.0
    elif n == 94:
        x = x + 1.0
    elif n == 95:
        x = x + 1.0
    elif n == 96:
        x = x + 1.0
    elif n == 97:
        x = x + 1.0
    elif n == 98:
        x = x + 1.0
    elif n == 99:
        x = x + 1.0
    elif n == 100:
        x = x + 1.0
    elif n == 101:
        x = x + 1.0
    elif n == 102:
        x = x + 1.0
    elif n == 103:
        x = x + 1.0
    elif n == 104:
        x = x + 1.0
    elif n == 105:
        x = x + 1.0
    elif n == 106:
        x = x + 1.0
    elif n == 107:
        x = x + 1.0
    elif n == 108:
        x = x + 1.0
    elif n == 109:
        x = x + 1.0
    elif n == 110:
        x = x + 1.0
    elif n == 111:
        x = x + 1.0
    elif n == 112:
        x = x + 1.0
    elif n == 113:
        x = x + 1.0
    elif n == 114:
        x = x + 1.0
    elif n == 115:
        x = x + 1.0
    elif n == 116:
        x = x + 1.0
    elif n == 117:
        x = x + 1.0
    elif n == 118:
        x = x + 1.0
    elif n == 119:
        x = x + 1.0
    elif n == 120:
        x = x + 1.0
    elif n == 121:
        x = x + 1.0
    elif n == 122:
        x = x + 1.0
    elif n == 123:
        x = x + 1.0
    elif n == 124:
        x = x + 1.0
    elif n == 125:
        x = x + 1.0
    elif n == 126:
        x = x + 1.0
    elif n == 127:
        x = x + 1.0
    elif n == 128:
        x = x + 1.0
    elif n == 129:
        x = x + 1.0
    elif n == 130:
        x = x + 1.0
    elif n == 131:
        x = x + 1.0
    elif n == 132:
        x = x + 1.0
    elif n == 133:
        x = x + 1.0
    elif n == 134:
        x = x + 1.0
    elif n == 135:
        x = x + 1.0
    elif n == 136:
        x = x + 1.0
    elif n == 137:
        x = x + 1.0
    elif n == 138:
        x = x + 1.0
    elif n == 139:
        x = x + 1.0
    elif n == 140:
        x = x + 1.0
    elif n == 141:
        x = x + 1.0
    elif n == 142:
        x = x + 1.0
    elif n == 143:
        x = x + 1.0
    elif n == 144:
        x = x + 1.0
    elif n == 145:
        x = x + 1.0
    elif n == 146:
        x = x + 1.0
    elif n == 147:
        x = x + 1.0
    elif n == 148:
        x = x + 1.0
    elif n == 149:
        x = x + 1.0
    elif n == 150:
        x = x + 1.0
    elif n == 151:
        x = x + 1.0
    elif n == 152:
        x = x + 1.0
    elif n == 153:
        x = x + 1.0
    elif n == 154:
        x = x + 1.0
    elif n == 155:
        x = x + 1.0
    elif n == 156:
        x = x + 1.0
    elif n == 157:
        x = x + 1.0
    elif n == 158:
        x = x + 1.0
    elif n == 159:
        x = x + 1.0
    elif n == 160:
        x = x + 1.0
    elif n == 161:
        x = x + 1.0
    elif n == 162:
        x = x + 1.0
    elif n == 163:
        x = x + 1.0
    elif n == 164:
        x = x + 1.0
    elif n == 165:
        x = x + 1.0
    elif n == 166:
        x = x + 1.0
    elif n == 167:
        x = x + 1.0
    elif n == 168:
        x = x + 1.0
    elif n == 169:
        x = x + 1.0
    elif n == 170:
        x = x + 1.0
    elif n == 171:
        x = x + 1.0
    elif n == 172:
        x = x + 1.0
    elif n == 173:
        x = x + 1.0
    elif n == 174:
        x = x + 1.0
    elif n == 175:
        x = x + 1.0
    elif n == 176:
        x = x + 1.0
    elif n == 177:
        x = x + 1.0
    elif n == 178:
        x = x + 1.0
    elif n == 179:
        x = x + 1.0
    elif n == 180:
        x = x + 1.0
    elif n == 181:
        x = x + 1.0
    elif n == 182:
        x = x + 1.0
    elif n == 183:
        x = x + 1.0
    elif n == 184:
        x = x + 1.0
    elif n == 185:
        x = x + 1.0
    elif n == 186:
        x = x + 1.0
    elif n == 187:
        x = x + 1.0
    elif n == 188:
        x = x + 1.0
    elif n == 189:
        x = x + 1.0
    elif n == 190:
        x = x + 1.0
    elif n == 191:
        x = x + 1.0
    elif n == 192:
        x = x + 1.0
    elif n == 193:
        x = x + 1.0
    elif n == 194:
        x = x + 1.0
    elif n == 195:
        x = x + 1.0
    elif n == 196:
        x = x + 1.0
    elif n == 197:
        x = x + 1.0
    elif n == 198:
        x = x + 1.0
    elif n == 199:
        x = x + 1.0
    elif n == 200:
        x = x + 1.0
    elif n == 201:
        x = x + 1.0
    elif n == 202:
        x = x + 1.0
    elif n == 203:
        x = x + 1.0
    elif n == 204:
        x = x + 1.0
    elif n == 205:
        x = x + 1.0
    elif n == 206:
        x = x + 1.0
    elif n == 207:
        x = x + 1.0
    elif n == 208:
        x = x + 1.0
    elif n == 209:
        x = x + 1.0
    elif n == 210:
        x = x + 1.0
    elif n == 211:
        x = x + 1.0
    elif n == 212:
        x = x + 1.0
    elif n == 213:
        x = x + 1.0
    elif n == 214:
        x = x + 1.0
    elif n == 215:
        x = x + 1.0
    elif n == 216:
        x = x + 1.0
    elif n == 217:
        x = x + 1.0
    elif n == 218:
        x = x + 1.0
    elif n == 219:
        x = x + 1.0
    elif n == 220:
        x = x + 1.0
    elif n == 221:
        x = x + 1.0
    elif n == 222:
        x = x + 1.0
    elif n == 223:
        x = x + 1.0
    elif n == 224:
        x = x + 1.0
    elif n == 225:
        x = x + 1.0
    elif n == 226:
        x = x + 1.0
    elif n == 227:
        x = x + 1.0
    elif n == 228:
        x = x + 1.0
    elif n == 229:
        x = x + 1.0
    elif n == 230:
        x = x + 1.0
    elif n == 231:
        x = x + 1.0
    elif n == 232:
        x = x + 1.0
    elif n == 233:
        x = x + 1.0
    elif n == 234:
        x = x + 1.0
    elif n == 235:
        x = x + 1.0
    elif n == 236:
        x = x + 1.0
    elif n == 237:
        x = x + 1.0
    elif n == 238:
        x = x + 1.0
    elif n == 239:
        x = x + 1.0
    elif n == 240:
        x = x + 1.0
    elif n == 241:
        x = x + 1.0
    elif n == 242:
        x = x + 1.0
    elif n == 243:
        x = x + 1.0
    elif n == 244:
        x = x + 1.0
    elif n == 245:
        x = x + 1.0
    elif n == 246:
        x = x + 1.0
    elif n == 247:
        x = x + 1.0
    elif n == 248:
        x = x + 1.0
    elif n == 249:
        x = x + 1.0
    elif n == 250:
        x = x + 1.0
    elif n == 251:
        x = x + 1.0
    elif n == 252:
        x = x + 1.0
    elif n == 253:
        x = x + 1.0
    elif n == 254:
        x = x + 1.0
    elif n == 255:
        x = x + 1.0
    elif n == 256:
        x = x + 1.0
    elif n == 257:
        x = x + 1.0
    elif n == 258:
        x = x + 1.0
    elif n == 259:
        x = x + 1.0
    elif n == 260:
        x = x + 1.0
    elif n == 261:
        x = x + 1.0
    elif n == 262:
        x = x + 1.0
    elif n == 263:
        x = x + 1.0
    elif n == 264:
        x = x + 1.0
    elif n == 265:
        x = x + 1.0
    elif n == 266:
        x = x + 1.0
    elif n == 267:
        x = x + 1.0
    elif n == 268:
        x = x + 1.0
    elif n == 269:
        x = x + 1.0
    elif n == 270:
        x = x + 1.0
    elif n == 271:
        x = x + 1.0
    elif n == 272:
        x = x + 1.0
    elif n == 273:
        x = x + 1.0
    elif n == 274:
        x = x + 1.0
    elif n == 275:
        x = x + 1.0
    elif n == 276:
        x = x + 1.0
    elif n == 277:
        x = x + 1.0
    elif n == 278:
        x = x + 1.0
    elif n == 279:
        x = x + 1.0
    elif n == 280:
        x = x + 1.0
    elif n == 281:
        x = x + 1.0
    elif n == 282:
        x = x + 1.0
    elif n == 283:
        x = x + 1.0
    elif n == 284:
        x = x + 1.0
    elif n == 285:
        x = x + 1.0
    elif n == 286:
        x = x + 1.0
    elif n == 287:
        x = x + 1.0
    elif n == 288:
        x = x + 1.0
    elif n == 289:
        x = x + 1.0
    elif n == 290:
        x = x + 1.0
    elif n == 291:
        x = x + 1.0
    elif n == 292:
        x = x + 1.0
    elif n == 293:
        x = x + 1.0
    elif n == 294:
        x = x + 1.0
    elif n == 295:
        x = x + 1.0
    elif n == 296:
        x = x + 1.0
    elif n == 297:
        x = x + 1.0
    elif n == 298:
        x = x + 1.0
    elif n == 299:
        x = x + 1.0
    tl.store(X, x + y)
