// The props the server renders each page with. Their shapes are defined once, in Rust
// (server/src/pages/props.rs), and generated into props.gen.ts by `make types`; `make test`
// fails when that file is stale. This module only gives them their usual names.

export type {
  Campaign,
  CampaignsProps,
  Feature,
  HomeProps,
  IconNode,
  LegalDocument,
  LegalPageProps,
  NotFoundProps,
  PageProps,
  SampleProject,
  Service,
  ServiceLink,
  ServiceProps,
  SiteInfo,
  Tracking,
} from "./props.gen";
