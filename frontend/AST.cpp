#include "frontend/AST.h"

#include "frontend/PythonFormat.h"

#include <cstdio>

namespace tessera::frontend {

std::string_view spelling(UnaryOp op) {
  switch (op) {
  case UnaryOp::Neg: return "-";
  case UnaryOp::Pos: return "+";
  case UnaryOp::Invert: return "~";
  case UnaryOp::Not: return "not";
  }
  return "?";
}

std::string_view spelling(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add: return "+";
  case BinaryOp::Sub: return "-";
  case BinaryOp::Mul: return "*";
  case BinaryOp::Div: return "/";
  case BinaryOp::FloorDiv: return "//";
  case BinaryOp::Mod: return "%";
  case BinaryOp::Pow: return "**";
  case BinaryOp::MatMul: return "@";
  case BinaryOp::LShift: return "<<";
  case BinaryOp::RShift: return ">>";
  case BinaryOp::BitAnd: return "&";
  case BinaryOp::BitOr: return "|";
  case BinaryOp::BitXor: return "^";
  }
  return "?";
}

std::string_view spelling(CmpOp op) {
  switch (op) {
  case CmpOp::Lt: return "<";
  case CmpOp::Gt: return ">";
  case CmpOp::Le: return "<=";
  case CmpOp::Ge: return ">=";
  case CmpOp::Eq: return "==";
  case CmpOp::Ne: return "!=";
  case CmpOp::In: return "in";
  case CmpOp::NotIn: return "not in";
  case CmpOp::Is: return "is";
  case CmpOp::IsNot: return "is not";
  }
  return "?";
}

std::string_view spelling(BoolOpKind op) { return op == BoolOpKind::And ? "and" : "or"; }

namespace {

void quote(std::string& out, std::string_view s) {
  out += '"';
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    } else {
      out += c;  // UTF-8 passes through
    }
  }
  out += '"';
}

bool isDotted(const Expr& e) {
  if (e.kind == ExprKind::Name) return true;
  auto* a = dynCast<AttributeExpr>(&e);
  return a && a->value && isDotted(*a->value);
}

void printExpr(std::string& out, const Expr* e);

void printList(std::string& out, std::string_view head, const ExprList& elts) {
  out += '(';
  out += head;
  for (const ExprPtr& x : elts) {
    out += ' ';
    printExpr(out, x.get());
  }
  out += ')';
}

void printExpr(std::string& out, const Expr* e) {
  if (!e) {
    out += "<null>";
    return;
  }
  switch (e->kind) {
  case ExprKind::Name: out += static_cast<const NameExpr*>(e)->id; return;
  case ExprKind::Int: out += std::to_string(static_cast<const IntExpr*>(e)->value); return;
  case ExprKind::Float: out += pythonFloatRepr(static_cast<const FloatExpr*>(e)->value); return;
  case ExprKind::Bool: out += static_cast<const BoolExpr*>(e)->value ? "True" : "False"; return;
  case ExprKind::NoneLit: out += "None"; return;
  case ExprKind::Str: quote(out, static_cast<const StrExpr*>(e)->value); return;
  case ExprKind::Tuple: printList(out, "tuple", static_cast<const TupleExpr*>(e)->elts); return;
  case ExprKind::List: printList(out, "list", static_cast<const ListExpr*>(e)->elts); return;
  case ExprKind::Dict: {
    auto* d = static_cast<const DictExpr*>(e);
    out += "(dict";
    for (size_t i = 0; i < d->keys.size() && i < d->values.size(); ++i) {
      out += " (";
      printExpr(out, d->keys[i].get());
      out += ' ';
      printExpr(out, d->values[i].get());
      out += ')';
    }
    out += ')';
    return;
  }
  case ExprKind::Attribute: {
    // Module paths like tl.arange read best dotted; other bases stay explicit.
    auto* a = static_cast<const AttributeExpr*>(e);
    if (a->value && isDotted(*a->value)) {
      printExpr(out, a->value.get());
      out += '.' + a->attr;
    } else {
      out += "(attr ";
      printExpr(out, a->value.get());
      out += ' ' + a->attr + ')';
    }
    return;
  }
  case ExprKind::Call: {
    auto* c = static_cast<const CallExpr*>(e);
    out += "(call ";
    printExpr(out, c->func.get());
    for (size_t i = 0; i < c->args.size(); ++i) {
      out += i < c->starred.size() && c->starred[i] ? " *" : " ";
      printExpr(out, c->args[i].get());
    }
    for (const Keyword& k : c->keywords) {
      out += ' ' + k.name + '=';
      printExpr(out, k.value.get());
    }
    out += ')';
    return;
  }
  case ExprKind::Subscript: {
    auto* s = static_cast<const SubscriptExpr*>(e);
    out += "(subscript ";
    printExpr(out, s->value.get());
    out += ' ';
    printExpr(out, s->index.get());
    out += ')';
    return;
  }
  case ExprKind::Slice: {
    auto* s = static_cast<const SliceExpr*>(e);
    auto part = [&](const ExprPtr& p) {
      out += ' ';
      if (p) printExpr(out, p.get());
      else out += '_';
    };
    out += "(slice";
    part(s->lower);
    part(s->upper);
    if (s->step) part(s->step);
    out += ')';
    return;
  }
  case ExprKind::Unary: {
    auto* u = static_cast<const UnaryExpr*>(e);
    static constexpr std::string_view kNames[] = {"neg", "pos", "invert", "not"};
    out += '(';
    out += kNames[static_cast<int>(u->op)];
    out += ' ';
    printExpr(out, u->operand.get());
    out += ')';
    return;
  }
  case ExprKind::Binary: {
    auto* b = static_cast<const BinaryExpr*>(e);
    out += '(';
    out += spelling(b->op);
    out += ' ';
    printExpr(out, b->lhs.get());
    out += ' ';
    printExpr(out, b->rhs.get());
    out += ')';
    return;
  }
  case ExprKind::Compare: {
    auto* c = static_cast<const CompareExpr*>(e);
    out += "(compare ";
    printExpr(out, c->left.get());
    for (size_t i = 0; i < c->ops.size() && i < c->comparators.size(); ++i) {
      out += ' ';
      out += spelling(c->ops[i]);
      out += ' ';
      printExpr(out, c->comparators[i].get());
    }
    out += ')';
    return;
  }
  case ExprKind::BoolOp: {
    auto* b = static_cast<const BoolOpExpr*>(e);
    printList(out, spelling(b->op), b->values);
    return;
  }
  case ExprKind::IfExp: {
    auto* i = static_cast<const IfExpr*>(e);
    out += "(ifexp ";
    printExpr(out, i->test.get());
    out += ' ';
    printExpr(out, i->body.get());
    out += ' ';
    printExpr(out, i->orelse.get());
    out += ')';
    return;
  }
  case ExprKind::Lambda: {
    auto* l = static_cast<const LambdaExpr*>(e);
    out += "(lambda (";
    for (size_t i = 0; i < l->params.size(); ++i) out += (i ? " " : "") + l->params[i];
    out += ") ";
    printExpr(out, l->body.get());
    out += ')';
    return;
  }
  case ExprKind::Comprehension: {
    // (listcomp elt (for target iter (if cond)...)...)
    auto* c = static_cast<const ComprehensionExpr*>(e);
    out += c->list ? "(listcomp " : "(genexp ";
    printExpr(out, c->elt.get());
    for (const auto& clause : c->clauses) {
      out += " (for ";
      printExpr(out, clause.target.get());
      out += ' ';
      printExpr(out, clause.iter.get());
      for (const ExprPtr& cond : clause.conditions) {
        out += " (if ";
        printExpr(out, cond.get());
        out += ')';
      }
      out += ')';
    }
    out += ')';
    return;
  }
  case ExprKind::JoinedStr: {
    // (fstring "text" (format x !r (fstring ">5")) ...)
    out += "(fstring";
    for (const FStringPart& p : static_cast<const JoinedStrExpr*>(e)->parts) {
      out += ' ';
      if (!p.value) {
        quote(out, p.literal);
        continue;
      }
      out += "(format ";
      printExpr(out, p.value.get());
      if (p.conversion) out += std::string(" !") + p.conversion;
      if (p.formatSpec) {
        out += ' ';
        printExpr(out, p.formatSpec.get());
      }
      out += ')';
    }
    out += ')';
    return;
  }
  }
}

std::string exprText(const Expr* e) {
  std::string s;
  printExpr(s, e);
  return s;
}

std::string aliasText(const std::vector<ImportAlias>& names) {
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) {
    s += (i ? ", " : "") + names[i].name;
    if (!names[i].asname.empty()) s += " as " + names[i].asname;
  }
  return s;
}

}  // namespace

std::string ASTPrinter::print(const Expr& e) { return exprText(&e); }

std::string ASTPrinter::print(const Module& m) const {
  std::string out = "Module\n";
  if (m.docstring) {
    std::string d;
    quote(d, *m.docstring);
    line(out, 1, "Docstring " + d, {});
  }
  printBlock(out, m.body, 1);
  return out;
}

std::string ASTPrinter::print(const Stmt& s, int indent) const {
  std::string out;
  printStmt(out, s, indent);
  return out;
}

void ASTPrinter::line(std::string& out, int indent, std::string_view text, SourceLoc loc) const {
  out.append(static_cast<size_t>(indent) * 2, ' ');
  out += text;
  if (options_.locations && loc.valid())
    out += " @" + std::to_string(loc.line) + ":" + std::to_string(loc.col);
  out += '\n';
}

void ASTPrinter::printBlock(std::string& out, const StmtList& body, int indent) const {
  for (const StmtPtr& s : body)
    if (s) printStmt(out, *s, indent);
}

void ASTPrinter::printStmt(std::string& out, const Stmt& s, int indent) const {
  switch (s.kind) {
  case StmtKind::Expr:
    line(out, indent, "Expr " + exprText(static_cast<const ExprStmt&>(s).value.get()), s.loc);
    return;
  case StmtKind::Assign: {
    auto& a = static_cast<const AssignStmt&>(s);
    std::string text = "Assign";
    for (const ExprPtr& t : a.targets) text += " " + exprText(t.get()) + " =";
    line(out, indent, text + " " + exprText(a.value.get()), s.loc);
    return;
  }
  case StmtKind::AugAssign: {
    auto& a = static_cast<const AugAssignStmt&>(s);
    line(out, indent,
         "AugAssign " + exprText(a.target.get()) + " " + std::string(spelling(a.op)) + "= " +
             exprText(a.value.get()),
         s.loc);
    return;
  }
  case StmtKind::AnnAssign: {
    auto& a = static_cast<const AnnAssignStmt&>(s);
    std::string text = "AnnAssign " + exprText(a.target.get()) + ": " + exprText(a.annotation.get());
    if (a.value) text += " = " + exprText(a.value.get());
    line(out, indent, text, s.loc);
    return;
  }
  case StmtKind::If: {
    auto& i = static_cast<const IfStmt&>(s);
    line(out, indent, "If " + exprText(i.test.get()), s.loc);
    line(out, indent + 1, "Then", {});
    printBlock(out, i.body, indent + 2);
    if (!i.orelse.empty()) {
      line(out, indent + 1, "Else", {});
      printBlock(out, i.orelse, indent + 2);
    }
    return;
  }
  case StmtKind::For: {
    auto& f = static_cast<const ForStmt&>(s);
    line(out, indent, "For " + exprText(f.target.get()) + " in " + exprText(f.iter.get()), s.loc);
    printBlock(out, f.body, indent + 1);
    return;
  }
  case StmtKind::While: {
    auto& w = static_cast<const WhileStmt&>(s);
    line(out, indent, "While " + exprText(w.test.get()), s.loc);
    printBlock(out, w.body, indent + 1);
    return;
  }
  case StmtKind::Break: line(out, indent, "Break", s.loc); return;
  case StmtKind::Continue: line(out, indent, "Continue", s.loc); return;
  case StmtKind::Pass: line(out, indent, "Pass", s.loc); return;
  case StmtKind::Return: {
    auto& r = static_cast<const ReturnStmt&>(s);
    line(out, indent, r.value ? "Return " + exprText(r.value.get()) : "Return", s.loc);
    return;
  }
  case StmtKind::Assert: {
    auto& a = static_cast<const AssertStmt&>(s);
    std::string text = "Assert " + exprText(a.test.get());
    if (a.msg) text += ", " + exprText(a.msg.get());
    line(out, indent, text, s.loc);
    return;
  }
  case StmtKind::Raise: {
    auto& r = static_cast<const RaiseStmt&>(s);
    std::string text = "Raise";
    if (r.exc) text += " " + exprText(r.exc.get());
    if (r.cause) text += " from " + exprText(r.cause.get());
    line(out, indent, text, s.loc);
    return;
  }
  case StmtKind::Import:
    line(out, indent, "Import " + aliasText(static_cast<const ImportStmt&>(s).names), s.loc);
    return;
  case StmtKind::ImportFrom: {
    auto& i = static_cast<const ImportFromStmt&>(s);
    line(out, indent,
         "ImportFrom " + std::string(i.level, '.') + i.module + " import " + aliasText(i.names), s.loc);
    return;
  }
  case StmtKind::FunctionDef: {
    auto& f = static_cast<const FunctionDef&>(s);
    line(out, indent, "FunctionDef " + f.name, s.loc);
    for (const ExprPtr& d : f.decorators) line(out, indent + 1, "Decorator " + exprText(d.get()), d ? d->loc : SourceLoc{});
    for (const Param& p : f.params) {
      std::string text = "Param " + p.name;
      if (p.annotation) text += ": " + exprText(p.annotation.get());
      if (p.defaultValue) text += " = " + exprText(p.defaultValue.get());
      line(out, indent + 1, text, p.loc);
    }
    if (f.returns) line(out, indent + 1, "Returns " + exprText(f.returns.get()), f.returns->loc);
    if (f.docstring) {
      std::string d;
      quote(d, *f.docstring);
      line(out, indent + 1, "Docstring " + d, {});
    }
    line(out, indent + 1, "Body", {});
    printBlock(out, f.body, indent + 2);
    return;
  }
  }
}

}  // namespace tessera::frontend
