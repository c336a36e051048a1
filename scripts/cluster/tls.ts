// The cluster's TLS certificate: made once by openssl (Debian's, on every machine nginx is on),
// self-signed for 127.0.0.1 and localhost, kept in the data folder. A browser warns about it
// once; `curl --cacert <certificate>` trusts it. A real deployment uses its own certificate
// (docs/deployment.md, "TLS").
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";

export interface Certificate {
  certificate: string;
  key: string;
}

export function ensureCertificate(dir: string): Certificate {
  mkdirSync(dir, { recursive: true });
  const certificate = join(dir, "vics-cluster.crt");
  const key = join(dir, "vics-cluster.key");
  if (existsSync(certificate) && existsSync(key)) return { certificate, key };
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      key,
      "-out",
      certificate,
      "-days",
      "825",
      "-subj",
      "/CN=VICS cluster on this machine",
      "-addext",
      "subjectAltName=IP:127.0.0.1,DNS:localhost",
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,digitalSignature,keyCertSign",
      "-addext",
      "extendedKeyUsage=serverAuth",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  return { certificate, key };
}
