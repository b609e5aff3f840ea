// Anchor translation unit for the shared precompiled <torch/torch.h>.
