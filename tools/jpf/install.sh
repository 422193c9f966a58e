#!/usr/bin/env bash
# tools/jpf/install.sh [SOURCE]
#
# Builds Java PathFinder's jpf-core with JDK 17 and installs it into the local Maven repository as
#   gov.nasa:jpf-core:DEVELOPMENT-SNAPSHOT     (build/jpf.jar: the JPF VM, its native peers, annotations)
#   gov.nasa:jpf-classes:DEVELOPMENT-SNAPSHOT  (build/jpf-classes.jar: the model classes JPF runs the SUT on)
# the coordinates that jpf-core's own Gradle build publishes. jpf-core is not on Maven Central.
#
# SOURCE is a jpf-core checkout (a directory) or a git URL; default: the GitHub repository,
# branch java-17 (JPF_BRANCH overrides the branch of a URL). The checkout is never modified: the
# build happens in a temporary directory, removed at the end. Nothing of jpf-core enters kmodel's
# repository.
#
# The build compiles jpf-core's source sets with javac in the order and with the flags of its
# build.gradle / gradle/source-sets.gradle (annotations, main, peers, classes, modules) and packs
# the two jars as its createJpfJar and createJpfClassesJar tasks do. It does not use Gradle: the
# Gradle wrapper downloads its distribution and the com.gradle.enterprise plugin from Gradle's own
# servers, which a machine that reaches only Maven Central cannot do.
#
# Environment: JPF_JAVA_HOME  a JDK 17 (default: JAVA_HOME if it is 17, else /usr/lib/jvm/*17*)
#              MVN            the Maven command, options allowed (default: mvn)
#              MAVEN_REPO     a local repository to install into (default: Maven's own, ~/.m2/repository)
# Each missing prerequisite ends the script with one line "install.sh: error: ..." and exit 1.
set -euo pipefail

readonly DEFAULT_SOURCE=https://github.com/javapathfinder/jpf-core.git
readonly VERSION=DEVELOPMENT-SNAPSHOT
prog=install.sh

die() { echo "$prog: error: $*" >&2; exit 1; }
info() { echo "$prog: $*"; }

case "${1:-}" in
  -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
[ $# -le 1 ] || die "usage: tools/jpf/install.sh [SOURCE]  (SOURCE: a jpf-core checkout or a git URL)"
source_arg="${1:-$DEFAULT_SOURCE}"

# --- JDK 17 ---------------------------------------------------------------------------------
java_major() { # prints the feature version of the JDK at $1, or nothing
  [ -x "$1/bin/javac" ] && [ -x "$1/bin/jar" ] || return 0
  "$1/bin/java" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = //p' | head -n1
}
jdk=""
for cand in "${JPF_JAVA_HOME:-}" "${JAVA_HOME:-}" /usr/lib/jvm/*-17-* /usr/lib/jvm/*17*; do
  [ -n "$cand" ] && [ -d "$cand" ] || continue
  if [ "$(java_major "$cand")" = 17 ]; then jdk="$cand"; break; fi
done
if [ -n "${JPF_JAVA_HOME:-}" ] && [ "$jdk" != "$JPF_JAVA_HOME" ]; then
  die "JPF_JAVA_HOME=$JPF_JAVA_HOME is not a JDK 17 (JPF's VM runs only on a Java 17 host JVM)"
fi
[ -n "$jdk" ] || die "no JDK 17 found (set JPF_JAVA_HOME; on Debian: apt-get install openjdk-17-jdk-headless)"
JAVAC="$jdk/bin/javac"; JAR="$jdk/bin/jar"

# --- git, Maven ---------------------------------------------------------------------------------
command -v git >/dev/null 2>&1 || die "git not found (on Debian: apt-get install git)"
read -r -a MVN <<<"${MVN:-mvn}"   # a command with options, e.g. MVN="mvn -o"
command -v "${MVN[0]}" >/dev/null 2>&1 || die "Maven (${MVN[0]}) not found (on Debian: apt-get install maven)"

work="$(mktemp -d "${TMPDIR:-/tmp}/jpf-install.XXXXXX")"
trap 'rm -rf "$work"' EXIT
log="$work/build.log"
keep_log() { # keeps the log, which the trap would remove, and prints its path
  local keep; keep="$(mktemp "${TMPDIR:-/tmp}/jpf-install-log.XXXXXX")"
  cp "$log" "$keep"; echo "$keep"
}
fail_build() { die "jpf-core build failed: $1 (log: $(keep_log))"; }
fail_smoke() { die "smoke check of the built JPF failed: $1 (log: $(keep_log))"; }

# --- source ---------------------------------------------------------------------------------
src="$work/jpf-core"
if [ -d "$source_arg" ] && ! [ -f "$source_arg/build.gradle" ] \
   && [ "$(git -C "$source_arg" rev-parse --is-bare-repository 2>/dev/null)" = true ]; then
  is_checkout=false  # a bare repository: cloned like a URL
else
  is_checkout=true
fi
if [ -d "$source_arg" ] && $is_checkout; then
  [ -f "$source_arg/build.gradle" ] && [ -d "$source_arg/src/main/gov/nasa/jpf" ] \
    || die "$source_arg is not a jpf-core checkout (no build.gradle and src/main/gov/nasa/jpf)"
  info "source: $source_arg (copied, not modified)"
  cp -R "$source_arg" "$src"
else
  branch="${JPF_BRANCH:-java-17}"
  info "source: $source_arg, branch $branch"
  if ! git clone --quiet --depth 1 --branch "$branch" "$source_arg" "$src" >"$log" 2>&1; then
    if grep -qiE 'could not resolve host|unable to access|connection (timed out|refused)|network is unreachable' "$log"; then
      die "cannot reach $source_arg (no network: clone jpf-core elsewhere and pass the checkout's path)"
    fi
    die "git clone of $source_arg (branch $branch) failed: $(grep -m1 -iE 'fatal|error' "$log" || echo 'see git')"
  fi
fi
[ -d "$src/src/classes/modules/java.base" ] || die "$source_arg has no src/classes/modules/java.base: not the java-17 branch of jpf-core?"
revision="$(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)"

# --- build (javac, following build.gradle's source sets) ------------------------------------
info "building with $jdk (revision $revision)"
b="$src/build"
rm -rf "$b"  # a checkout's own earlier build is not reused
mkdir -p "$b/annotations" "$b/main" "$b/peers" "$b/classes" "$b/classes/modules"
M="$src/src/classes/modules"
patch=()
for m in java.base java.logging java.xml; do
  [ -d "$M/$m" ] && patch+=(--patch-module "$m=$M/$m")
done
jc() { # jc STEP ARGS...: compiles the .java files under the source dirs given after '--'
  local step="$1"; shift
  local args=() dirs=()
  while [ "$1" != -- ]; do args+=("$1"); shift; done; shift
  dirs=("$@")
  find "${dirs[@]}" -name '*.java' >"$work/$step.files"
  echo "== $step" >>"$log"
  "$JAVAC" -nowarn -encoding UTF-8 "${args[@]}" "@$work/$step.files" >>"$log" 2>&1 \
    || fail_build "javac $step"
}
jc annotations -d "$b/annotations" -- "$src/src/annotations"
jc main -cp "$b/annotations" -d "$b/main" -- "$src/src/main"
jc peers -cp "$b/main:$b/annotations" \
  --add-exports java.base/jdk.internal.access=ALL-UNNAMED \
  --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -d "$b/peers" -- "$src/src/peers"
jc classes -cp "$b/main:$b/annotations" "${patch[@]}" \
  --add-exports java.base/sun.net.www.protocol.http=ALL-UNNAMED --add-reads java.base=ALL-UNNAMED \
  -d "$b/classes" -- "$src/src/classes/gov" "$src/src/classes/org"
jc modules -cp "$b/annotations:$b/classes:$b/main" --module-source-path "$M" "${patch[@]}" \
  --add-exports java.base/sun.net.www.protocol.http=ALL-UNNAMED --add-reads java.base=ALL-UNNAMED \
  -d "$b/classes/modules" -- "$M"

# copyResources: .version and build.properties into main's gov/nasa/jpf
echo "$revision" >"$b/main/gov/nasa/jpf/.version"
{
  echo "revision=${revision:0:7}"
  echo "date=$(git -C "$src" log -1 --format=%ci 2>/dev/null || true)"
  echo "java.version=$("$jdk/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.version = //p')"
  echo "built.by=kmodel tools/jpf/install.sh"
} >"$b/main/gov/nasa/jpf/build.properties"

# createJpfJar: main + peers + annotations + classes' org/junit/*.class
printf 'Implementation-Title: Java Pathfinder core system\nImplementation-Vendor: NASA Ames Research Center\nImplementation-Version: %s\n' "$VERSION" >"$work/manifest"
mkdir -p "$work/junit/org/junit"
cp "$b/classes/org/junit/"*.class "$work/junit/org/junit/" 2>/dev/null || true
echo "== jar" >>"$log"
"$JAR" --create --file "$b/jpf.jar" --manifest "$work/manifest" \
  -C "$b/main" . -C "$b/peers" . -C "$b/annotations" . -C "$work/junit" . >>"$log" 2>&1 \
  || fail_build "jar jpf.jar"
# createJpfClassesJar: classes (with modules) + annotations + six classes of main
jc_main=(gov/nasa/jpf/JPFShell.class gov/nasa/jpf/vm/Verify.class gov/nasa/jpf/util/TypeRef.class
         gov/nasa/jpf/util/test/TestJPF.class gov/nasa/jpf/util/test/TestMultiProcessJPF.class
         gov/nasa/jpf/util/test/TestJPFHelper.class)
# (like Gradle's include, a class this revision does not have is left out; the first two are required)
for c in gov/nasa/jpf/vm/Verify.class gov/nasa/jpf/util/test/TestJPF.class; do
  [ -f "$b/main/$c" ] || fail_build "$c missing from the build"
done
main_parts=()
for c in "${jc_main[@]}"; do [ -f "$b/main/$c" ] && main_parts+=(-C "$b/main" "$c"); done
"$JAR" --create --file "$b/jpf-classes.jar" --manifest "$work/manifest" \
  -C "$b/classes" . -C "$b/annotations" . "${main_parts[@]}" >>"$log" 2>&1 \
  || fail_build "jar jpf-classes.jar"

# --- smoke check: the built jars must find a lost update and pass its locked twin ------------
# (JPF's RunJPF exits 0 even when it finds an error, and a classpath mistake makes a check pass
# vacuously: so the check reads JPF's report, and demands both the error and the clean run.)
smoke="$work/smoke"
mkdir -p "$smoke/sut"
cat >"$smoke/sut/Counter.java" <<'JAVA'
public class Counter {
  static int n;
  static final Object lock = new Object();
  static void add(boolean locked) {
    if (locked) { synchronized (lock) { n = n + 1; } } else { int v = n; n = v + 1; }
  }
  public static void main(String[] args) throws Exception {
    boolean locked = args.length > 0 && args[0].equals("locked");
    Thread t1 = new Thread(() -> add(locked)), t2 = new Thread(() -> add(locked));
    t1.start(); t2.start(); t1.join(); t2.join();
    if (n != 2) throw new AssertionError("lost update: n=" + n);
  }
}
JAVA
"$JAVAC" -d "$smoke/sut" "$smoke/sut/Counter.java" >>"$log" 2>&1 || fail_smoke "javac of its test program"
# jpf-core's jpf.properties without its first lines, which name its own build/ directories
sed -n '/^jpf-core.peer_packages/,$p' "$src/jpf.properties" >"$smoke/defaults.properties"
run_smoke() { # run_smoke ARGS: prints JPF's report
  printf '@include=defaults.properties\ntarget=Counter\ntarget.args=%s\nclasspath=%s\nnative_classpath=%s\n' \
    "$1" "$b/jpf-classes.jar:$smoke/sut" "$b/jpf.jar" >"$smoke/counter.jpf"
  (cd "$smoke" && "$jdk/bin/java" --add-opens java.base/jdk.internal.misc=ALL-UNNAMED \
    --add-exports java.base/jdk.internal.misc=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED \
    -cp "$b/jpf.jar" gov.nasa.jpf.JPF counter.jpf 2>&1)
}
echo "== smoke racy" >>"$log"
run_smoke racy >"$smoke/racy.out"; cat "$smoke/racy.out" >>"$log"
grep -q 'error #1: .*lost update' "$smoke/racy.out" || fail_smoke "JPF did not report the unlocked counter's lost update"
echo "== smoke locked" >>"$log"
run_smoke locked >"$smoke/locked.out"; cat "$smoke/locked.out" >>"$log"
grep -q '^no errors detected' "$smoke/locked.out" || fail_smoke "JPF did not pass the locked counter"
info "smoke check: JPF finds the lost update ($(sed -n 's/^states: *//p' "$smoke/racy.out")) and passes the locked counter ($(sed -n 's/^states: *//p' "$smoke/locked.out"))"

# --- install --------------------------------------------------------------------------------
repo_opt=()
[ -n "${MAVEN_REPO:-}" ] && repo_opt=("-Dmaven.repo.local=$MAVEN_REPO")
install_jar() { # install_jar ARTIFACT FILE
  echo "== install $1" >>"$log"
  "${MVN[@]}" -B -q "${repo_opt[@]}" install:install-file -Dfile="$2" -DgroupId=gov.nasa \
    -DartifactId="$1" -Dversion="$VERSION" -Dpackaging=jar -DgeneratePom=true >>"$log" 2>&1 \
    || die "mvn install:install-file of gov.nasa:$1 failed (Maven cannot reach Maven Central for its install plugin? log: $(keep_log))"
  info "installed gov.nasa:$1:$VERSION ($(wc -c <"$2") bytes)"
}
install_jar jpf-core "$b/jpf.jar"
install_jar jpf-classes "$b/jpf-classes.jar"
info "done: jpf-core $revision built with JDK 17 and installed"
