#!/usr/bin/env python3
"""Checks the Kubernetes manifests in deploy/kubernetes against the schema of the fields they use.

No cluster and no downloaded schema is needed (kubeconform and kubectl are not installed from the registries this
project uses): every object is checked for its apiVersion and kind, the type of every field it sets, and fields
Kubernetes does not have at that place (a misspelled `readinessProbe` is an error, not a silently ignored key).
Then the manifests are checked against each other and against the command lines they run.

The registry (the one Deployment, deployment.yaml): its Service selects the Deployment's pods and targets a named
container port; the probes are /health (liveness) and /ready (readiness) on that port; `serve --database $(VAR)
--host 0.0.0.0 --port N` with N the container port; every $(VAR) is defined; every secretKeyRef names a key of a
Secret in the folder; the password comes from LITEVISION_REGISTRY_DATABASE_PASSWORD; the upload folder is a mounted
volume (the root filesystem is read-only).

The tracking processes (each StatefulSet, tracking.yaml): a container runs `litevision track` through the
entrypoint script of a mounted ConfigMap, which picks the camera group `cameras-N` of its pod's ordinal N (from
POD_NAME, the pod's name): the ConfigMap has a group for every ordinal below `replicas`, and holds no URL with a
password; `--serve 0.0.0.0:PORT` with PORT a container port, the probes GET /health on it and the Prometheus
annotations name it and /metrics; `--serve-token-file` is a key of a mounted Secret volume; `--mqtt` is an mqtt:// or
mqtts:// URL without a password, whose user's password is LITEVISION_MQTT_PASSWORD from a Secret; serviceName names a headless Service selecting the pods;
a CPU request is set; with a read-only root filesystem the model cache (XDG_CACHE_HOME) is a mounted volume.

    scripts/check-deploy.py [FOLDER]      (default: deploy/kubernetes beside this script)

Exit status 0 when everything holds, 1 with one line per problem, 2 when a file cannot be read.
"""

import os
import re
import sys

import yaml

# The schema of the fields the manifests use: a dict is an object (field -> schema), a list [schema] is an array
# of it, a type is a scalar of that type, "any" is anything.
STRING, INT, BOOL = str, int, bool
INT_OR_STRING = (int, str)
LABELS = {"*": STRING}
METADATA = {"name": STRING, "namespace": STRING, "labels": LABELS, "annotations": LABELS}
HTTP_GET = {"path": STRING, "port": INT_OR_STRING, "scheme": STRING, "httpHeaders": [{"name": STRING, "value": STRING}]}
PROBE = {
    "httpGet": HTTP_GET, "initialDelaySeconds": INT, "periodSeconds": INT, "timeoutSeconds": INT,
    "failureThreshold": INT, "successThreshold": INT,
}
SECRET_KEY_REF = {"name": STRING, "key": STRING, "optional": BOOL}
ENV = {"name": STRING, "value": STRING,
       "valueFrom": {"secretKeyRef": SECRET_KEY_REF, "fieldRef": {"fieldPath": STRING, "apiVersion": STRING}}}
KEY_TO_PATH = [{"key": STRING, "path": STRING, "mode": INT}]
CONTAINER = {
    "name": STRING, "image": STRING, "imagePullPolicy": STRING, "command": [STRING], "args": [STRING],
    "env": [ENV], "ports": [{"name": STRING, "containerPort": INT, "protocol": STRING}],
    "livenessProbe": PROBE, "readinessProbe": PROBE, "startupProbe": PROBE,
    "resources": {"requests": {"cpu": INT_OR_STRING, "memory": INT_OR_STRING},
                  "limits": {"cpu": INT_OR_STRING, "memory": INT_OR_STRING}},
    "securityContext": {"allowPrivilegeEscalation": BOOL, "readOnlyRootFilesystem": BOOL, "runAsNonRoot": BOOL,
                        "capabilities": {"drop": [STRING], "add": [STRING]}},
    "volumeMounts": [{"name": STRING, "mountPath": STRING, "readOnly": BOOL}],
}
POD_SPEC = {
    "containers": [CONTAINER], "terminationGracePeriodSeconds": INT,
    "securityContext": {"runAsNonRoot": BOOL, "runAsUser": INT, "runAsGroup": INT, "fsGroup": INT},
    "volumes": [{"name": STRING, "emptyDir": {"sizeLimit": INT_OR_STRING, "medium": STRING},
                 "configMap": {"name": STRING, "items": KEY_TO_PATH, "defaultMode": INT, "optional": BOOL},
                 "secret": {"secretName": STRING, "items": KEY_TO_PATH, "defaultMode": INT, "optional": BOOL}}],
}
SCHEMAS = {
    ("v1", "Secret"): {"apiVersion": STRING, "kind": STRING, "metadata": METADATA, "type": STRING,
                       "stringData": LABELS, "data": LABELS},
    ("apps/v1", "Deployment"): {
        "apiVersion": STRING, "kind": STRING, "metadata": METADATA,
        "spec": {
            "replicas": INT, "selector": {"matchLabels": LABELS},
            "strategy": {"type": STRING, "rollingUpdate": {"maxUnavailable": INT_OR_STRING,
                                                           "maxSurge": INT_OR_STRING}},
            "template": {"metadata": METADATA, "spec": POD_SPEC},
        },
    },
    ("apps/v1", "StatefulSet"): {
        "apiVersion": STRING, "kind": STRING, "metadata": METADATA,
        "spec": {
            "replicas": INT, "selector": {"matchLabels": LABELS}, "serviceName": STRING,
            "podManagementPolicy": STRING,
            "updateStrategy": {"type": STRING, "rollingUpdate": {"partition": INT, "maxUnavailable": INT_OR_STRING}},
            "template": {"metadata": METADATA, "spec": POD_SPEC},
        },
    },
    ("v1", "ConfigMap"): {"apiVersion": STRING, "kind": STRING, "metadata": METADATA, "data": LABELS},
    ("v1", "Service"): {
        "apiVersion": STRING, "kind": STRING, "metadata": METADATA,
        "spec": {"type": STRING, "clusterIP": STRING, "selector": LABELS,
                 "ports": [{"name": STRING, "port": INT, "targetPort": INT_OR_STRING, "protocol": STRING}]},
    },
}
REQUIRED = {"Secret": ["metadata.name"], "ConfigMap": ["metadata.name"],
            "Deployment": ["metadata.name", "spec.selector", "spec.template"],
            "StatefulSet": ["metadata.name", "spec.selector", "spec.template", "spec.serviceName"],
            "Service": ["metadata.name", "spec.selector", "spec.ports"]}
# A URL with a password (`scheme://user:password@`), which a ConfigMap must not hold.
URL_WITH_PASSWORD = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^/@\s:]*:[^/@\s]+@")


def check_schema(value, schema, where, problems):
    if schema == "any":
        return
    if isinstance(schema, dict):
        if not isinstance(value, dict):
            problems.append(f"{where}: an object was expected")
            return
        for key, item in value.items():
            if key in schema:
                check_schema(item, schema[key], f"{where}.{key}", problems)
            elif "*" in schema:
                check_schema(item, schema["*"], f"{where}.{key}", problems)
            else:
                problems.append(f"{where}.{key}: not a field Kubernetes has here")
    elif isinstance(schema, list):
        if not isinstance(value, list) or not value:
            problems.append(f"{where}: a non-empty list was expected")
            return
        for index, item in enumerate(value):
            check_schema(item, schema[0], f"{where}[{index}]", problems)
    else:
        types = schema if isinstance(schema, tuple) else (schema,)
        if isinstance(value, bool) and bool not in types or not isinstance(value, types):
            problems.append(f"{where}: {type(value).__name__} where {'/'.join(t.__name__ for t in types)} goes")


def get(value, path):
    for key in path.split("."):
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return value


def check(folder):
    problems, objects = [], []
    names = sorted(name for name in os.listdir(folder) if name.endswith((".yaml", ".yml")))
    if not names:
        return [f"{folder}: no manifests"]
    for name in names:
        try:
            with open(os.path.join(folder, name)) as file:
                documents = [d for d in yaml.safe_load_all(file) if d is not None]
        except (OSError, yaml.YAMLError) as error:
            print(f"check-deploy: {name}: {error}", file=sys.stderr)
            sys.exit(2)
        for document in documents:
            key = (document.get("apiVersion"), document.get("kind")) if isinstance(document, dict) else None
            where = f"{name}:{key[1] if key else '?'}"
            if key not in SCHEMAS:
                problems.append(f"{where}: unknown apiVersion/kind {key}")
                continue
            check_schema(document, SCHEMAS[key], where, problems)
            problems += [f"{where}: {path} is missing" for path in REQUIRED[key[1]] if get(document, path) is None]
            objects.append((where, document))

    def of_kind(kind):
        return [(w, d) for w, d in objects if d["kind"] == kind]

    secrets = {get(d, "metadata.name"): set((d.get("stringData") or {}) | (d.get("data") or {}))
               for _, d in of_kind("Secret")}
    config_maps = {get(d, "metadata.name"): d.get("data") or {} for _, d in of_kind("ConfigMap")}
    for where, config_map in of_kind("ConfigMap"):
        for key, value in (config_map.get("data") or {}).items():
            if URL_WITH_PASSWORD.search(str(value)):
                problems.append(f"{where}: data {key} holds a URL with a password: a ConfigMap is not secret, put "
                                f"it in a Secret")
    services = of_kind("Service")
    # (where, pod labels, ports of the container that does the work) of each workload, for the Services.
    workloads = []
    deployments = of_kind("Deployment")
    if len(deployments) != 1:
        return problems + [f"{folder}: one Deployment expected, found {len(deployments)}"]
    for where, deployment in deployments:
        found, ports = check_registry(where, deployment, secrets)
        problems += found
        if ports is None:
            return problems
        workloads.append((where, get(deployment, "spec.template.metadata.labels") or {}, ports, "registry"))
    for where, stateful_set in of_kind("StatefulSet"):
        found, ports = check_tracking(where, stateful_set, secrets, config_maps, services)
        problems += found
        if ports is not None:
            workloads.append((where, get(stateful_set, "spec.template.metadata.labels") or {}, ports, "tracking"))

    if not services:
        problems.append(f"{folder}: no Service")
    for where, service in services:
        chosen = get(service, "spec.selector") or {}
        selected = [w for w in workloads if chosen and all(w[1].get(k) == v for k, v in chosen.items())]
        if not selected:
            problems.append(f"{where}: spec.selector does not select the pods of the Deployment or a StatefulSet here")
            continue
        _, _, ports, role = selected[0]
        for port in get(service, "spec.ports") or []:
            target = port.get("targetPort")
            if (target not in ports) if isinstance(target, str) else (target not in ports.values()):
                problems.append(f"{where}: targetPort {target} is not a port of the {role} container")
    return problems


def option(args, name):
    """The value after `name` in `args`, or None."""
    return args[args.index(name) + 1] if name in args and args.index(name) + 1 < len(args) else None


def check_env(where, container, secrets):
    """Problems with a container's environment: $(VAR) in its args that env does not define, secretKeyRefs naming
    keys no Secret here has."""
    problems = []
    env = {e.get("name"): e for e in container.get("env") or []}
    for variable in re.findall(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", " ".join(container.get("args") or [])):
        if variable not in env:
            problems.append(f"{where}: args use $({variable}), which env does not define")
    for name, variable in env.items():
        reference = get(variable, "valueFrom.secretKeyRef")
        if reference and reference.get("key") not in secrets.get(reference.get("name"), set()):
            problems.append(f"{where}: env {name} names key {reference.get('key')} of secret "
                            f"{reference.get('name')}, which no Secret here has")
    return problems


def probe_port(probe, ports):
    port = get(probe, "httpGet.port")
    return ports.get(port) if isinstance(port, str) else port


def check_registry(where, deployment, secrets):
    """Problems of the registry's Deployment, and the ports of its container (None when it has no registry)."""
    problems = []
    labels = get(deployment, "spec.template.metadata.labels") or {}
    selector = get(deployment, "spec.selector.matchLabels") or {}
    if not selector or any(labels.get(k) != v for k, v in selector.items()):
        problems.append(f"{where}: spec.selector.matchLabels does not select the pod template's labels")
    pod = get(deployment, "spec.template.spec") or {}
    containers = pod.get("containers") or []
    registry = next((c for c in containers if "serve" in (c.get("args") or [])), None)
    if registry is None:
        return problems + [f"{where}: no container runs `serve`"], None
    ports = {p.get("name"): p.get("containerPort") for p in registry.get("ports") or []}
    args = registry.get("args") or []
    env = {e.get("name"): e for e in registry.get("env") or []}

    database = option(args, "--database") or ""
    if not database.startswith("$(") and not database.startswith("postgres"):
        problems.append(f"{where}: serve has no --database")
    if option(args, "--host") != "0.0.0.0":
        problems.append(f"{where}: serve must listen on --host 0.0.0.0 in a pod")
    port = option(args, "--port")
    if port is None or not port.isdigit() or int(port) not in ports.values():
        problems.append(f"{where}: --port {port} is not a container port ({sorted(ports.values())})")
    problems += check_env(where, registry, secrets)
    if "LITEVISION_REGISTRY_DATABASE_PASSWORD" not in env:
        problems.append(f"{where}: the database password (LITEVISION_REGISTRY_DATABASE_PASSWORD) is not given")

    for probe, path in [("livenessProbe", "/health"), ("readinessProbe", "/ready")]:
        if get(registry, f"{probe}.httpGet.path") != path:
            problems.append(f"{where}: {probe} must GET {path}")
        elif probe_port(registry.get(probe), ports) != int(port if port and port.isdigit() else 0):
            problems.append(f"{where}: {probe} is not on the registry's port")
    mounts = {m.get("mountPath"): m.get("name") for m in registry.get("volumeMounts") or []}
    volumes = {v.get("name") for v in pod.get("volumes") or []}
    for path, name in mounts.items():
        if name not in volumes:
            problems.append(f"{where}: volumeMount {path} names volume {name}, which the pod does not have")
    if get(registry, "securityContext.readOnlyRootFilesystem") and option(args, "--upload-folder") not in mounts:
        problems.append(f"{where}: the root filesystem is read-only, so --upload-folder must be a mounted volume")
    return problems, ports


def mounted_file(path, container, volumes):
    """(volume, key) of the ConfigMap or Secret volume of `container` whose mount holds file `path`: the key an
    item maps to that file, or the file's name when the volume has no items. None when no such volume is mounted."""
    for mount in container.get("volumeMounts") or []:
        folder = (mount.get("mountPath") or "").rstrip("/") + "/"
        if not path.startswith(folder):
            continue
        volume = volumes.get(mount.get("name")) or {}
        source = volume.get("configMap") or volume.get("secret")
        if source is None:
            continue
        name = path[len(folder):]
        items = source.get("items")
        if items is None:
            return volume, name
        key = next((i.get("key") for i in items if i.get("path") == name), None)
        return (volume, key) if key is not None else None
    return None


def check_tracking(where, stateful_set, secrets, config_maps, services):
    """Problems of a StatefulSet of tracking processes, and the ports of its container (None when it has none)."""
    problems = []
    labels = get(stateful_set, "spec.template.metadata.labels") or {}
    selector = get(stateful_set, "spec.selector.matchLabels") or {}
    if not selector or any(labels.get(k) != v for k, v in selector.items()):
        problems.append(f"{where}: spec.selector.matchLabels does not select the pod template's labels")
    service_name = get(stateful_set, "spec.serviceName")
    headless = [s for _, s in services if get(s, "metadata.name") == service_name
                and get(s, "spec.clusterIP") == "None" and get(s, "spec.selector")
                and all(labels.get(k) == v for k, v in get(s, "spec.selector").items())]
    if not headless:
        problems.append(f"{where}: serviceName {service_name} names no headless Service (clusterIP: None) here that "
                        f"selects the pods")
    pod = get(stateful_set, "spec.template.spec") or {}
    tracking = next((c for c in pod.get("containers") or [] if "track" in (c.get("args") or [])), None)
    if tracking is None:
        return problems + [f"{where}: no container runs `litevision track`"], None
    ports = {p.get("name"): p.get("containerPort") for p in tracking.get("ports") or []}
    args = tracking.get("args") or []
    env = {e.get("name"): e for e in tracking.get("env") or []}
    volumes = {v.get("name"): v for v in pod.get("volumes") or []}
    for mount in tracking.get("volumeMounts") or []:
        if mount.get("name") not in volumes:
            problems.append(f"{where}: volumeMount {mount.get('mountPath')} names volume {mount.get('name')}, which "
                            f"the pod does not have")
    problems += check_env(where, tracking, secrets)

    # The entry point: a script of a mounted ConfigMap that picks the pod's camera group by its ordinal.
    command = tracking.get("command") or []
    script = command[1] if len(command) == 2 and command[0] in ("/bin/sh", "sh", "/bin/bash") else None
    found = mounted_file(script, tracking, volumes) if script else None
    config_map = get(found[0], "configMap.name") if found and "configMap" in found[0] else None
    if config_map is None or found[1] not in config_maps.get(config_map, {}):
        problems.append(f"{where}: the command must run an entrypoint script from a mounted ConfigMap here "
                        f"(/bin/sh /etc/…/entrypoint.sh), got {command}")
    else:
        data = config_maps[config_map]
        text = data[found[1]]
        if "POD_NAME" not in text or "cameras-" not in text:
            problems.append(f"{where}: the entrypoint {script} does not pick cameras-N by the ordinal in POD_NAME")
        if get(env.get("POD_NAME") or {}, "valueFrom.fieldRef.fieldPath") != "metadata.name":
            problems.append(f"{where}: env POD_NAME must come from the pod's name (fieldRef fieldPath metadata.name)")
        replicas = get(stateful_set, "spec.replicas")
        for ordinal in range(replicas if isinstance(replicas, int) else 1):
            if not str(data.get(f"cameras-{ordinal}", "")).strip():
                problems.append(f"{where}: ConfigMap {config_map} has no cameras-{ordinal} for pod ordinal {ordinal} "
                                f"(replicas is {replicas})")

    serve = option(args, "--serve") or ""
    host, _, serve_port = serve.rpartition(":")
    if host not in ("0.0.0.0", "[::]"):
        problems.append(f"{where}: --serve must listen on 0.0.0.0:PORT in a pod, got {serve or 'nothing'}")
    serve_port = int(serve_port) if serve_port.isdigit() else None
    if serve_port not in ports.values():
        problems.append(f"{where}: the --serve port {serve_port} is not a container port ({sorted(ports.values())})")
    for probe in ("livenessProbe", "readinessProbe"):
        if get(tracking, f"{probe}.httpGet.path") != "/health":
            problems.append(f"{where}: {probe} must GET /health (the one path open without the token)")
        elif probe_port(tracking.get(probe), ports) != serve_port:
            problems.append(f"{where}: {probe} is not on the --serve port")
    annotations = get(stateful_set, "spec.template.metadata.annotations") or {}
    if annotations.get("prometheus.io/scrape") != "true":
        problems.append(f"{where}: the pod template lacks the annotation prometheus.io/scrape: \"true\"")
    if annotations.get("prometheus.io/port") != str(serve_port):
        problems.append(f"{where}: prometheus.io/port {annotations.get('prometheus.io/port')} is not the --serve port "
                        f"{serve_port}")
    if annotations.get("prometheus.io/path") != "/metrics":
        problems.append(f"{where}: prometheus.io/path must be /metrics")

    token = option(args, "--serve-token-file")
    found = mounted_file(token, tracking, volumes) if token else None
    secret = get(found[0], "secret.secretName") if found and "secret" in found[0] else None
    if secret is None or found[1] not in secrets.get(secret, set()):
        problems.append(f"{where}: --serve-token-file {token} is not a key of a mounted Secret volume here")

    mqtt = option(args, "--mqtt")
    if mqtt is not None:
        match = re.match(r"^mqtts?://(?:([^:@/]*)(?::([^@/]*))?@)?[^/]+/.+$", mqtt)
        if match is None:
            problems.append(f"{where}: --mqtt must be mqtt://[user[:password]@]host[:port]/prefix or mqtts://…")
        elif match.group(2) is not None:
            problems.append(f"{where}: the --mqtt password must come from a Secret, in the environment variable "
                            f"LITEVISION_MQTT_PASSWORD (a secretKeyRef), never in the URL")
        elif match.group(1) and get(env.get("LITEVISION_MQTT_PASSWORD") or {}, "valueFrom.secretKeyRef") is None:
            problems.append(f"{where}: the --mqtt user {match.group(1)} needs its password in LITEVISION_MQTT_PASSWORD, "
                            f"from a Secret (a secretKeyRef)")

    if get(tracking, "resources.requests.cpu") is None:
        problems.append(f"{where}: no CPU request: tracking is CPU work, give each pod the cores its cameras need")
    cache = get(env.get("XDG_CACHE_HOME") or {}, "value")
    mounts = [(m.get("mountPath") or "").rstrip("/") for m in tracking.get("volumeMounts") or []]
    if get(tracking, "securityContext.readOnlyRootFilesystem") and not (
            cache and any(cache == m or cache.startswith(m + "/") for m in mounts)):
        problems.append(f"{where}: the root filesystem is read-only, so XDG_CACHE_HOME (where the built-in models are "
                        f"downloaded) must be a mounted volume")
    return problems, ports


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "deploy",
                                                                  "kubernetes")
    problems = check(folder)
    for problem in problems:
        print(f"check-deploy: {problem}")
    if problems:
        sys.exit(1)
    print(f"check-deploy: {os.path.normpath(folder)}: every manifest checked, consistent with the commands they run")


if __name__ == "__main__":
    main()
